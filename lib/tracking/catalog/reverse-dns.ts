// Reverse-DNS verification, for the operators that document it instead of (or beside) publishing IP lists:
// the address's PTR name must end in one of the operator's domains, and that name must resolve back to the
// same address (forward-confirmed reverse DNS). Lookups are cached and time-limited; the resolver is
// injectable so tests use a local fake.
import { LruCache } from "../lru-cache";

export interface ReverseDnsResolver {
  reverse(ip: string): Promise<string[]>;
  /** A and AAAA records of a host name. */
  resolve(hostname: string): Promise<string[]>;
}

/**
 * Google's user-triggered fetchers: *.gae.googleusercontent.com (user-owned) or google-proxy-*.google.com. Not the
 * whole googleusercontent.com, whose other names any cloud customer's machine can carry.
 */
const GOOGLE_FETCHER_HOSTS = ["google.com", "gae.googleusercontent.com"] as const;
const GOOGLE_FETCHERS = [
  "FeedFetcher-Google",
  "Google-Read-Aloud",
  "Google-Site-Verification",
  "GoogleProducer",
  "Google-CWS",
  "Google-Pinpoint",
  "Google-NotebookLM",
  "Google-GeminiNotebook",
];

/** Documented crawler host names per bot (each operator's verification page). */
const REVERSE_DNS_SUFFIXES: Readonly<Record<string, readonly string[]>> = {
  // https://developers.google.com/crawling/docs/crawlers-fetchers/verify-google-requests
  // Not googleusercontent.com: Google names its user-triggered fetchers there (under gae.), and any cloud
  // customer's machine gets a name there too.
  Googlebot: ["googlebot.com", "google.com"],
  "Googlebot-Image": ["googlebot.com", "google.com"],
  "Googlebot-Video": ["googlebot.com", "google.com"],
  "Googlebot-News": ["googlebot.com", "google.com"],
  "Googlebot-Smartphone": ["googlebot.com", "google.com"],
  "AdsBot-Google": ["google.com", "googlebot.com"],
  GoogleOther: ["googlebot.com", "google.com"],
  "Google-InspectionTool": ["googlebot.com", "google.com"],
  "Storebot-Google": ["googlebot.com", "google.com"],
  // Special-case crawlers: rate-limited-proxy-*.google.com.
  "Mediapartners-Google": ["google.com"],
  "APIs-Google": ["google.com"],
  "Google-Safety": ["google.com"],
  ...Object.fromEntries(GOOGLE_FETCHERS.map((name) => [name, GOOGLE_FETCHER_HOSTS])),
  // https://www.bing.com/webmasters/help/how-to-verify-bingbot-3905dc26
  Bingbot: ["search.msn.com"],
  BingPreview: ["search.msn.com"],
  AdIdxBot: ["search.msn.com"],
  // https://support.apple.com/en-us/119829
  Applebot: ["applebot.apple.com"],
  // https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html
  YandexBot: ["yandex.ru", "yandex.net", "yandex.com"],
  // https://www.baidu.com/search/spider_english.html
  Baiduspider: ["baidu.com", "baidu.jp"],
  // https://aspiegel.com/petalbot
  PetalBot: ["petalsearch.com"],
  // https://developer.amazon.com/amazonbot
  Amazonbot: ["crawl.amazonbot.amazon"],
  // https://developers.facebook.com/docs/sharing/webmasters/web-crawlers (no list; AS32934 host names)
};

type ReverseDnsVerdict = "verified" | "unverified" | "unknown";

export interface ReverseDnsVerifier {
  /** "verified": the PTR name is the operator's and resolves back; "unverified": it is not; "unknown": no rule or no answer in time. */
  verify(botName: string, ip: string): Promise<ReverseDnsVerdict>;
  /** The verdict from the cache alone, without a lookup; undefined when the address has not been answered yet. */
  peek(botName: string, ip: string): ReverseDnsVerdict | undefined;
  supports(botName: string): boolean;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A verifier over `resolver`, answering within `timeoutMs` per address and caching answers (misses too). */
export function createReverseDnsVerifier(options: {
  resolver: ReverseDnsResolver;
  timeoutMs?: number;
  cacheSize?: number;
  suffixes?: Readonly<Record<string, readonly string[]>>;
}): ReverseDnsVerifier {
  const suffixes = options.suffixes ?? REVERSE_DNS_SUFFIXES;
  const timeoutMs = options.timeoutMs ?? 1_500;
  // The forward-confirmed PTR names of an address, shared across bots: one lookup per address.
  const cache = new LruCache<string, string[]>(options.cacheSize ?? 10_000);

  async function confirmedNames(ip: string): Promise<string[] | null> {
    const names = await options.resolver.reverse(ip);
    const confirmed: string[] = [];
    for (const name of names.slice(0, 4)) {
      const addresses = await options.resolver.resolve(name);
      if (addresses.includes(ip)) confirmed.push(name.toLowerCase().replace(/\.$/, ""));
    }
    return confirmed;
  }

  const inFlight = new Map<string, Promise<string[] | null>>();

  function lookup(ip: string): Promise<string[] | null> {
    const known = cache.get(ip);
    if (known) return Promise.resolve(known);
    const running = inFlight.get(ip);
    if (running) return running;
    const pending = withTimeout(
      confirmedNames(ip).catch((err: { code?: string }) =>
        // NXDOMAIN / no PTR is an answer (no name); anything else is no answer.
        err?.code === "ENOTFOUND" || err?.code === "ENODATA" ? [] : null,
      ),
      timeoutMs,
    ).then((r) => {
      inFlight.delete(ip);
      const names = r === "timeout" ? null : r;
      // Only answers are cached; after a timeout or server failure the next visit asks again.
      if (names !== null) cache.set(ip, names);
      return names;
    });
    inFlight.set(ip, pending);
    return pending;
  }

  function verdict(botName: string, names: string[] | null): ReverseDnsVerdict {
    const domains = suffixes[botName];
    if (!domains || names === null) return "unknown";
    const ok = names.some((n) => domains.some((d) => n === d || n.endsWith(`.${d}`)));
    return ok ? "verified" : "unverified";
  }

  return {
    supports: (botName) => botName in suffixes,
    async verify(botName, ip) {
      if (!suffixes[botName]) return "unknown";
      return verdict(botName, await lookup(ip));
    },
    peek(botName, ip) {
      if (!suffixes[botName]) return undefined;
      const names = cache.get(ip);
      return names ? verdict(botName, names) : undefined;
    },
  };
}
