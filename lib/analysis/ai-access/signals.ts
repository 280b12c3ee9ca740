// What a site says about AI use besides Allow/Disallow: Content Signals and IETF AI preferences in robots.txt,
// the Content-Usage header, X-Robots-Tag headers and robots meta tags, and the block pages CDNs serve bots.

import type { Robots } from "@/lib/seo/robots";
import { getBotDefinition } from "@/lib/tracking/catalog/bots";
import type { RobotsDirective, UsagePrefs } from "./schema";

export interface ContentSignal {
  userAgents: string[];
  /** Index of its robots.txt group. */
  group?: number;
  line: number;
  raw: string;
  search?: "yes" | "no";
  aiInput?: "yes" | "no";
  aiTrain?: "yes" | "no";
  unknown: string[];
}

const SIGNAL_KEYS = { search: "search", "ai-input": "aiInput", "ai-train": "aiTrain" } as const;

/** `Content-Signal: search=yes, ai-input=yes, ai-train=no` (contentsignals.org); keys and values read case-blind. */
export function parseContentSignal(raw: string): Omit<ContentSignal, "userAgents" | "line" | "group"> {
  const out: Omit<ContentSignal, "userAgents" | "line" | "group"> = { raw, unknown: [] };
  for (const part of raw.split(",")) {
    const item = part.trim();
    if (!item) continue;
    const [key = "", value = ""] = item.split("=").map((s) => s.trim().toLowerCase());
    const field = SIGNAL_KEYS[key as keyof typeof SIGNAL_KEYS];
    if (field && (value === "yes" || value === "no")) out[field] = value;
    else out.unknown.push(item);
  }
  return out;
}

/** The usage categories of draft-ietf-aipref-vocab and their fields here. */
const USAGE_LABELS = { "train-ai": "trainAi", "ai-use": "aiUse", search: "search" } as const;
const SF_KEY = /^[a-z*][a-z0-9_\-.*]*$/;

/** Splits on `sep` outside double-quoted strings. */
function splitOutsideQuotes(text: string, sep: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\" && quoted) {
      current += c + (text[i + 1] ?? "");
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === sep && !quoted) {
      parts.push(current);
      current = "";
    } else current += c;
  }
  parts.push(current);
  return parts;
}

/**
 * A usage preference expression (draft-ietf-aipref-vocab §6–7): a Structured Fields Dictionary whose keys are
 * category labels and whose values are the tokens `y` or `n`. The last value of a repeated key wins; a value
 * that is no token (`train-ai`, `train-ai="n"`) or another token leaves the category unknown; parameters are
 * ignored; a dictionary that does not parse (an upper-case key, say) leaves every category unknown.
 */
export function parseUsagePreference(raw: string): UsagePrefs {
  const values = new Map<string, string | null>();
  for (const member of splitOutsideQuotes(raw, ",")) {
    const [head = ""] = splitOutsideQuotes(member, ";");
    const text = head.replace(/^[ \t]+|[ \t]+$/g, "");
    if (!text) return { unknown: [raw.trim()].filter(Boolean) };
    const eq = text.indexOf("=");
    const key = eq < 0 ? text : text.slice(0, eq);
    if (!SF_KEY.test(key)) return { unknown: [raw.trim()] };
    const value = eq < 0 ? null : text.slice(eq + 1);
    values.delete(key);
    values.set(key, value !== null && /^[A-Za-z*][!#$%&'*+\-.^_`|~:/\w]*$/.test(value) ? value : null);
  }
  const prefs: UsagePrefs = { unknown: [] };
  for (const [key, value] of values) {
    const field = USAGE_LABELS[key as keyof typeof USAGE_LABELS];
    if (!field) prefs.unknown.push(key);
    else if (value === "y" || value === "n") prefs[field] = value;
  }
  return prefs;
}

export interface RobotsUsageRule extends UsagePrefs {
  userAgents: string[];
  group?: number;
  line: number;
  path: string;
  raw: string;
}

/** Content-Signal and Content-Usage records of a parsed robots.txt, each with the user agents of its group. */
export function readRobotsPreferences(robots: Robots): {
  signals: ContentSignal[];
  usage: RobotsUsageRule[];
} {
  const signals: ContentSignal[] = [];
  const usage: RobotsUsageRule[] = [];
  for (const record of robots.otherRecords) {
    const userAgents = record.group === undefined ? [] : (robots.groups[record.group]?.userAgents ?? []);
    const group = record.group === undefined ? {} : { group: record.group };
    if (record.key === "content-signal") {
      signals.push({ userAgents, ...group, line: record.line, ...parseContentSignal(record.value) });
    } else if (record.key === "content-usage") {
      // draft-ietf-aipref-attach §3: a path (starting with "/") then blanks then the preference expression.
      const match = record.value.match(/^(\/\S*)[ \t]+(.*)$/);
      const path = match ? match[1]! : "/";
      const expression = match ? match[2]! : record.value;
      usage.push({
        userAgents,
        ...group,
        line: record.line,
        path,
        raw: record.value,
        ...parseUsagePreference(expression),
      });
    }
  }
  return { signals, usage };
}

/** Directives of robots meta tags and X-Robots-Tag, as Google and Bing document them, plus noai / noimageai. */
const DIRECTIVE_NAMES = new Set([
  "all",
  "none",
  "noindex",
  "nofollow",
  "noarchive",
  "nocache",
  "nosnippet",
  "notranslate",
  "noimageindex",
  "indexifembedded",
  "unavailable_after",
  "max-snippet",
  "max-image-preview",
  "max-video-preview",
  "noai",
  "noimageai",
  "index",
  "follow",
]);

function splitDirectives(text: string): string[] {
  return text
    .split(",")
    .map((d) =>
      d
        .trim()
        .toLowerCase()
        .replace(/\s*:\s*/, ":"),
    )
    .filter(Boolean);
}

/**
 * X-Robots-Tag values: "noindex, nofollow" for every crawler, or "gptbot: noai" for one (a prefix that is no
 * directive name names a user agent; "unavailable_after: …" and "max-snippet: …" are directives).
 */
export function parseXRobotsTag(values: readonly string[]): RobotsDirective[] {
  const out: RobotsDirective[] = [];
  for (const value of values) {
    const scoped = value.match(/^\s*([A-Za-z][\w-]*)\s*:\s*(.*)$/);
    const name = scoped?.[1]?.toLowerCase();
    if (scoped && name && !DIRECTIVE_NAMES.has(name)) {
      out.push({ source: "x-robots-tag", agent: name, directives: splitDirectives(scoped[2]!) });
    } else {
      out.push({ source: "x-robots-tag", agent: "robots", directives: splitDirectives(value) });
    }
  }
  return out;
}

/** Whether a meta name addresses crawlers: "robots" or a crawler the catalogue knows by its token. */
export function isCrawlerMetaName(name: string): boolean {
  const lower = name.toLowerCase();
  if (lower === "robots") return true;
  const def = getBotDefinition(lower);
  return Boolean(def?.robotsToken && def.robotsToken.toLowerCase() === lower);
}

export function metaDirective(name: string, content: string): RobotsDirective {
  return { source: "meta", agent: name.toLowerCase(), directives: splitDirectives(content) };
}

/** The directives that apply to a crawler: the general ones and those naming its token. */
export function directivesFor(all: readonly RobotsDirective[], token: string): RobotsDirective[] {
  const lower = token.toLowerCase();
  return all.filter((d) => d.agent === "robots" || d.agent === lower);
}

export interface ResponseLike {
  status: number;
  headers: Record<string, string[]>;
  body: string;
}

/** [vendor, test] pairs recognising bot challenges and block pages by their documented markers. */
const CHALLENGES: readonly [string, (r: ResponseLike, h: (n: string) => string) => boolean][] = [
  [
    "Cloudflare challenge",
    (r, h) =>
      /challenge/i.test(h("cf-mitigated")) ||
      /<title>\s*Just a moment\.\.\.\s*<\/title>/i.test(r.body) ||
      /\/cdn-cgi\/challenge-platform\//.test(r.body) ||
      /Attention Required! \| Cloudflare/i.test(r.body),
  ],
  ["Vercel challenge", (_r, h) => /challenge/i.test(h("x-vercel-mitigated"))],
  [
    "Akamai block page",
    (r, h) =>
      (/AkamaiGHost/i.test(h("server")) && r.status === 403) ||
      (/<title>\s*Access Denied\s*<\/title>/i.test(r.body) &&
        /Reference&#32;#|Reference #[\d.a-f]+/i.test(r.body)),
  ],
  [
    "DataDome challenge",
    (r, h) => (h("x-datadome") !== "" && r.status >= 400) || /captcha-delivery\.com/i.test(r.body),
  ],
  ["HUMAN (PerimeterX) challenge", (r) => /px-captcha|_pxCaptcha|captcha\.px-cdn\.net/i.test(r.body)],
  ["Imperva (Incapsula) block page", (r) => /_Incapsula_Resource|Incapsula incident ID/i.test(r.body)],
  [
    "AWS WAF challenge",
    (r, h) =>
      /captcha|challenge|block/i.test(h("x-amzn-waf-action")) ||
      /awswaf\.com|AwsWafIntegration/i.test(r.body),
  ],
  [
    "Sucuri block page",
    (r, h) => h("x-sucuri-block") !== "" || /Sucuri WebSite Firewall - Access Denied/i.test(r.body),
  ],
];

/** The vendor of a challenge or block page in the answer, or null. */
export function detectChallenge(res: ResponseLike): string | null {
  const header = (name: string) => (res.headers[name] ?? []).join(", ");
  for (const [vendor, test] of CHALLENGES) if (test(res, header)) return vendor;
  return null;
}
