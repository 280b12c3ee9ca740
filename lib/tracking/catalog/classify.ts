import crawlerUserAgents from "crawler-user-agents";
import { isbotMatches } from "isbot";
import { LruCache } from "../lru-cache";
import { deriveBotName } from "./bot-name";
import {
  type AiEngine,
  BOT_DEFINITIONS,
  type BotDefinition,
  type BotPurpose,
  getBotDefinition,
} from "./bots";
import { createAnchoredMatcher } from "./pattern-index";

interface ClassifiedBot {
  name: string;
  operator: string | null;
  purpose: BotPurpose;
  engine: AiEngine | null;
  isAIBot: boolean;
  /** Which layer recognised it: our table, the crawler-user-agents list, isbot, or a spoofed robots token. */
  source: "table" | "crawler-user-agents" | "isbot" | "spoofed-token" | "empty";
}

export type UserAgentClass = { kind: "human" } | { kind: "bot"; bot: ClassifiedBot };

// Longer user agents are junk or attacks; the first 1 KiB is enough to recognise any real crawler and keeps
// the cache's memory bounded.
const MAX_UA_LENGTH = 1024;
const CACHE_SIZE = 20_000;

const HUMAN: UserAgentClass = Object.freeze({ kind: "human" });

function fromDefinition(def: BotDefinition): UserAgentClass {
  const bot: ClassifiedBot = {
    name: def.name,
    operator: def.operator,
    purpose: def.purpose,
    engine: def.engine,
    isAIBot: def.isAIBot,
    source: "table",
  };
  return Object.freeze({ kind: "bot", bot: Object.freeze(bot) });
}

/** The class of the bot the table names so (case-insensitive), or null when it names none. */
export function classifyBotNamed(name: string): UserAgentClass | null {
  const def = getBotDefinition(name);
  return def ? fromDefinition(def) : null;
}

const matchable = BOT_DEFINITIONS.filter((d) => d.userAgent !== null);
const tableMatcher = createAnchoredMatcher(
  matchable.map((d) => d.userAgent as RegExp),
  true,
);
const tableResults = matchable.map(fromDefinition);

// Google-Extended and Applebot-Extended are never sent by a crawler, so a user agent naming one is somebody
// else borrowing the name. We report it as such rather than crediting Google or Apple.
const spoofedTokens = BOT_DEFINITIONS.filter((d) => d.robotsTxtOnly).map((d) => ({
  name: d.name,
  pattern: new RegExp(`\\b${d.name.replace(/-/g, "\\-")}\\b`, "i"),
}));

// The package's ESM typings omit `tags`, which every entry of its JSON has.
interface CrawlerEntry {
  pattern: string;
  url?: string;
  tags?: string[];
}

const cuaEntries = (crawlerUserAgents as readonly CrawlerEntry[]).filter(
  (entry) => !spoofedTokens.some((t) => t.pattern.test(entry.pattern)),
);
const cuaMatcher = createAnchoredMatcher(
  cuaEntries.map((entry) => new RegExp(entry.pattern)),
  false,
);

// The list's `url` is the crawler's home page for crawlers, but only a documentation link for HTTP libraries
// and automation tools, which have no operator we could name.
function operatorFromEntry(entry: CrawlerEntry | undefined): string | null {
  if (!entry?.url || entry.tags?.some((t) => t === "http-library" || t === "browser-automation")) return null;
  try {
    return new URL(entry.url).hostname.replace(/^www\./, "") || null;
  } catch {
    return null;
  }
}

function purposeFromTags(tags: readonly string[] | undefined): { purpose: BotPurpose; isAIBot: boolean } {
  const has = (tag: string) => tags?.includes(tag) ?? false;
  // The list's "ai-crawler" tag does not say what the crawl is for; most such crawlers collect training data.
  if (has("ai-crawler")) return { purpose: has("search-engine") ? "ai_search" : "training", isAIBot: true };
  if (has("search-engine")) return { purpose: "search_engine", isAIBot: false };
  if (has("seo")) return { purpose: "seo", isAIBot: false };
  return { purpose: "other", isAIBot: false };
}

function bot(fields: Omit<ClassifiedBot, "engine"> & { engine?: AiEngine | null }): UserAgentClass {
  return Object.freeze({ kind: "bot", bot: Object.freeze({ ...fields, engine: fields.engine ?? null }) });
}

// Words only a program names itself with, and contact details (a URL, an e-mail address) that browsers never
// carry: either makes a user agent a bot whatever else it says.
export const STRONG_BOT_SIGN =
  /bot\b|bot[/_-]|crawl|spider|slurp|scrap|fetch|archiv|monitor|checker|validat|scanner|preview|headless|lighthouse|curl|wget|python|perl\b|ruby|php\/|java\/\d|go-http|okhttp|axios|node-fetch|undici|httpclient|http-client|libwww|transcoder|\bGoogle-[A-Z]|-Google\b|\w+Proxy\/\d|like Gecko; ?[A-Z]|\(compatible; (?!MSIE)[A-Z][\w-]+(?:[;)]|\/\d)|https?:\/\/|www\.|\w@\w/i;
// Tokens of real browsers and browsing devices (feature phones, TVs, consoles, in-app browsers).
export const BROWSER_SHAPE =
  /^(?:Mozilla\/[1-5]\.|Opera\/\d|[A-Z][\w.-]*\/[\d.]+ (?:\(|Profile\/MIDP)|dv\(|iPhone\w*$|iPod\w*$|smarttv_)|\b(?:AppleWebKit|Gecko|Trident|Presto|HbbTV|CE-HTML|NETTV|MAUI|WAP[ -]?Browser|NetFront|UCBrowser|UCWEB|Obigo|Dolfin|MIDP-\d|CLDC-\d|BREW|Polaris|Jasmine)\b/i;
// Browsers whose name the crawler list's patterns catch: Sogou's mobile browser ("Sogou" is its crawler's name).
const BROWSER_PRODUCT = /\bSogou(?:MSE|MobileBrowser)\b/;
// The platform part of an Android user agent, "(Linux; Android 7.0; M bot 54 Build/NRD90M)": it names the
// device model, which is no evidence either way.
const ANDROID_PLATFORM = /\(Linux;[^)]*Android[^)]*\)/i;

/**
 * Whether a user agent isbot flagged is a bot: yes when the crawler list names it too, when it carries a
 * program's word or contact details, or when it does not look like any browser; no when it looks like a
 * browser and nothing else speaks for a bot (isbot alone flags TV, feature-phone and device-model strings).
 */
function isBotByWeightOfSignals(ua: string, listed: boolean): boolean {
  if (listed && !BROWSER_PRODUCT.test(ua)) return true;
  if (STRONG_BOT_SIGN.test(ua.replace(ANDROID_PLATFORM, "()"))) return true;
  return !BROWSER_SHAPE.test(ua);
}

function classifyUncached(userAgent: string): UserAgentClass {
  const ua = userAgent.trim();
  // isbot calls an empty user agent human because it is built for browsers. Every browser sends one, so
  // for server-side traffic an empty or "-" user agent is a script.
  if (ua === "" || ua === "-") {
    return bot({
      name: "(no user agent)",
      operator: null,
      purpose: "other",
      isAIBot: false,
      source: "empty",
    });
  }

  const known = tableMatcher.findFirst(ua);
  if (known) return tableResults[known.index] as UserAgentClass;

  const spoofed = spoofedTokens.find((t) => t.pattern.test(ua));
  if (spoofed) {
    return bot({
      name: `${spoofed.name} (spoofed)`,
      operator: null,
      purpose: "other",
      isAIBot: false,
      source: "spoofed-token",
    });
  }

  // isbot and the crawler list are signals, not the verdict: on their own they flag TV, feature-phone and
  // in-app browsers (device models like "M bot 54", "CE-HTML", "SogouMobileBrowser") as bots.
  const matches = isbotMatches(ua);
  if (matches.length === 0) return HUMAN;
  const generic = matches[0] as string;
  const listed = cuaMatcher.findFirst(ua);
  if (!isBotByWeightOfSignals(ua, listed !== null)) return HUMAN;
  if (listed) {
    const entry = cuaEntries[listed.index];
    return bot({
      name: deriveBotName(ua, { index: listed.match.index, text: listed.match[0] }),
      operator: operatorFromEntry(entry),
      ...purposeFromTags(entry?.tags),
      source: "crawler-user-agents",
    });
  }

  const index = ua.indexOf(generic);
  return bot({
    name: deriveBotName(ua, index === -1 ? null : { index, text: generic }),
    operator: null,
    purpose: "other",
    isAIBot: false,
    source: "isbot",
  });
}

const cache = new LruCache<string, UserAgentClass>(CACHE_SIZE);

/**
 * Classifies a user agent as a human or a named bot: our own table first (AI and important crawlers), then
 * the crawler-user-agents list, then isbot's verdict. Results are cached, since user agents repeat heavily.
 * The returned objects are shared; do not mutate them.
 */
export function classifyUserAgent(userAgent: string | null | undefined): UserAgentClass {
  const ua = (userAgent ?? "").slice(0, MAX_UA_LENGTH);
  const cached = cache.get(ua);
  if (cached) return cached;
  const result = classifyUncached(ua);
  cache.set(ua, result);
  return result;
}

/** Empties the classification cache (tests, or after the bot table changes at runtime). */
export function clearClassificationCache(): void {
  cache.clear();
}
