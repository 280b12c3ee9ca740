import { FetchError } from "@/lib/fetch/errors";
import type { FetchErrorCode, GuardedFetch, GuardedFetchOptions } from "@/lib/fetch/types";
import { BOT_TOKENS, type BotToken } from "@/lib/tracking/catalog/robots-tokens";

/** RFC 9309 §2.5: crawlers must parse at least 500 KiB; what follows is ignored. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

interface RobotsRule {
  allow: boolean;
  /** The path pattern, percent-encoding normalised. */
  pattern: string;
  /** 1-based line in the file. */
  line: number;
}

interface RobotsGroup {
  /** Product tokens as written (`*` for all). */
  userAgents: string[];
  rules: RobotsRule[];
  /** Not in RFC 9309, but widely read; seconds. */
  crawlDelay?: number;
}

interface RobotsRecord {
  line: number;
  key: string;
  value: string;
  /** Index in `groups` of the group the record sits in (Content-Signal and Content-Usage are per group). */
  group?: number;
}

interface RobotsIssue {
  line: number;
  message: string;
}

export interface Robots {
  /**
   * `rules`: a parsed file decides; `allow-all`: no file (4xx, RFC 9309 §2.3.1.3);
   * `disallow-all`: unreachable (5xx or network failure, §2.3.1.4).
   */
  mode: "rules" | "allow-all" | "disallow-all";
  groups: RobotsGroup[];
  /** Absolute URLs from Sitemap lines, in file order, without duplicates. */
  sitemaps: string[];
  issues: RobotsIssue[];
  /**
   * Records RFC 9309 leaves to crawlers (§2.2.4) that this parser knows but does not apply: AI usage preferences
   * (Content-Signal, Content-Usage), Yandex's Host and Clean-param, rate hints. Key lower-cased, value as written.
   */
  otherRecords: RobotsRecord[];
  /** The file was longer than ROBOTS_MAX_BYTES and its tail was ignored. */
  truncated: boolean;
}

export interface RobotsMatch {
  allowed: boolean;
  /** The deciding rule; null when no rule matched (allowed) or the mode decided. */
  rule: RobotsRule | null;
  /** Which groups applied: ones naming the token, the `*` groups, or none. */
  group: "specific" | "wildcard" | "none";
}

/**
 * Directive names as Google's parser reads them: a key that starts with one of these names (case-insensitively)
 * is that directive, so "User-agent", "useragent" and "Disallowed" all count; the misspellings are the ones
 * Google accepts. Checked in this order, so "disallow" is never read as "allow".
 */
const DIRECTIVE_PREFIXES: readonly [Directive, readonly string[]][] = [
  ["user-agent", ["user-agent", "useragent", "user agent"]],
  ["allow", ["allow"]],
  ["disallow", ["disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"]],
  ["sitemap", ["sitemap", "site-map"]],
  ["crawl-delay", ["crawl-delay"]],
];
type Directive = "user-agent" | "allow" | "disallow" | "sitemap" | "crawl-delay";

/** The directive a key names, and whether it was spelled other than the standard way. */
function directiveOf(key: string): { directive: Directive; exact: boolean } | null {
  const lower = key.toLowerCase();
  for (const [directive, prefixes] of DIRECTIVE_PREFIXES) {
    if (prefixes.some((prefix) => lower.startsWith(prefix))) return { directive, exact: lower === directive };
  }
  return null;
}

/** Records some crawlers read, kept as they are (not problems of the file). */
const OTHER_RECORDS = new Set([
  "content-signal",
  "content-usage",
  "host",
  "clean-param",
  "request-rate",
  "visit-time",
  "revisit-after",
]);

/** Page-level directives written into robots.txt, which no major crawler reads there. */
const PAGE_DIRECTIVES = new Set(["noindex", "nofollow", "noarchive", "nosnippet", "noimageindex"]);

/**
 * Google ignores the bytes of a line past 8 × 2083 (eight maximal browser URLs) less one for its terminator;
 * a rule cut there still applies as cut.
 */
export const ROBOTS_MAX_LINE_BYTES = 2083 * 8 - 1;

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * The bytes after a UTF-8 byte order mark or any leading part of one, as Google's parser skips them
 * ("\xEF\xBB" alone still counts); a broken sequence ("\xEF\x11\xBF") is left to show as a bad first line.
 */
function skipByteOrderMark(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < UTF8_BOM.length && bytes[i] === UTF8_BOM[i]) i++;
  return bytes.subarray(i);
}

/**
 * Parses robots.txt, given as its bytes (preferred: a partial byte order mark is skipped exactly as Google
 * does) or as decoded text, where a BOM or the one replacement character a partial BOM decodes to is dropped.
 * `baseUrl` (the robots.txt URL) resolves relative Sitemap lines.
 */
export function parseRobotsTxt(input: string | Uint8Array, baseUrl?: string): Robots {
  const text =
    typeof input === "string"
      ? input.replace(/^(?:\uFEFF|\uFFFD)/, "")
      : new TextDecoder("utf-8").decode(skipByteOrderMark(input));
  const bytes = Buffer.from(text, "utf8");
  const truncated = bytes.length > ROBOTS_MAX_BYTES;
  let body = text;
  if (truncated) {
    // Cut at the last full line inside the limit so no half rule is read.
    const head = bytes.subarray(0, ROBOTS_MAX_BYTES).toString("utf8");
    body = head.slice(0, Math.max(head.lastIndexOf("\n"), 0));
  }
  const robots: Robots = { mode: "rules", groups: [], sitemaps: [], issues: [], otherRecords: [], truncated };
  let group: RobotsGroup | null = null;
  let groupHasRules = false;
  const lines = body.split(/\r\n|\r|\n/);

  lines.forEach((whole, index) => {
    const line = index + 1;
    const raw = cutLine(whole);
    if (raw !== whole) {
      robots.issues.push({
        line,
        message: `Line longer than ${ROBOTS_MAX_LINE_BYTES} bytes: the rest is ignored`,
      });
    }
    // ASCII blanks only: String#trim would also drop a stray U+FEFF, which Google reads as part of the line.
    const content = raw.replace(/#.*$/, "").replace(/^[ \t\v\f]+|[ \t\v\f]+$/g, "");
    if (!content) return;
    const pair = splitKeyValue(content);
    if (!pair) {
      robots.issues.push({ line, message: `No "key: value" on this line: "${content.slice(0, 80)}"` });
      return;
    }
    const { key, value } = pair;
    const known = directiveOf(key);
    if (!known) {
      const name = key.toLowerCase();
      if (OTHER_RECORDS.has(name)) {
        robots.otherRecords.push({
          line,
          key: name,
          value,
          ...(group ? { group: robots.groups.length - 1 } : {}),
        });
      } else if (PAGE_DIRECTIVES.has(name)) {
        robots.issues.push({
          line,
          message: `"${name}" is not read in robots.txt (Google stopped in 2019): use a robots meta tag or an X-Robots-Tag header`,
        });
      } else robots.issues.push({ line, message: `Unknown directive "${name}" is ignored` });
      return;
    }
    const { directive } = known;
    if (pair.missingColon) {
      robots.issues.push({ line, message: `Missing ":" after "${key}": read as "${directive}: ${value}"` });
    } else if (!known.exact) {
      robots.issues.push({ line, message: `"${key}" is read as "${directive}"` });
    }

    if (directive === "user-agent") {
      if (!group || groupHasRules) {
        group = { userAgents: [], rules: [] };
        robots.groups.push(group);
        groupHasRules = false;
      }
      group.userAgents.push(value);
      return;
    }
    if (directive === "sitemap") {
      addSitemap(robots, value, baseUrl, line);
      return;
    }
    if (!group) {
      robots.issues.push({ line, message: `"${key.toLowerCase()}" before any user-agent line is ignored` });
      return;
    }
    if (directive === "crawl-delay") {
      // Not a rule of RFC 9309: it belongs to the group but does not end it (a user-agent line after it
      // still joins the same group, as for any other non-rule line).
      const seconds = Number(value);
      if (value && Number.isFinite(seconds) && seconds >= 0) group.crawlDelay = seconds;
      else robots.issues.push({ line, message: `Crawl-delay "${value}" is not a number` });
      return;
    }
    groupHasRules = true;
    // An empty Disallow means "nothing is disallowed": it adds no rule.
    if (!value) return;
    if (!value.startsWith("/") && !value.startsWith("*")) {
      robots.issues.push({ line, message: `Path "${value}" should start with "/"` });
    }
    // Only a final `$` is an anchor; elsewhere it is the character itself.
    const pattern = normalisePath(value).replace(/\$(?!$)/g, "%24");
    const allow = directive === "allow";
    group.rules.push({ allow, pattern, line });
    // As Google does: allowing ".../index.htm(l)" also allows the directory itself ("/dir/" exactly).
    const slash = pattern.lastIndexOf("/");
    if (allow && slash >= 0 && pattern.startsWith("/index.htm", slash)) {
      group.rules.push({ allow, pattern: `${pattern.slice(0, slash + 1)}$`, line });
    }
  });
  return robots;
}

/** A line cut to ROBOTS_MAX_LINE_BYTES of UTF-8, at a character boundary. */
function cutLine(line: string): string {
  if (line.length <= ROBOTS_MAX_LINE_BYTES / 3) return line;
  const bytes = Buffer.from(line, "utf8");
  if (bytes.length <= ROBOTS_MAX_LINE_BYTES) return line;
  let end = ROBOTS_MAX_LINE_BYTES;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}

/**
 * `key: value`; as Google reads it, a line without a colon whose two words are separated by blanks
 * ("Disallow /private") is read as if the colon were there, and one with more words has no directive.
 */
function splitKeyValue(content: string): { key: string; value: string; missingColon: boolean } | null {
  const colon = content.indexOf(":");
  if (colon >= 0) {
    const key = content.slice(0, colon).replace(/[ \t]+$/, "");
    if (!key) return null;
    return { key, value: content.slice(colon + 1).replace(/^[ \t\v\f]+/, ""), missingColon: false };
  }
  const words = content.split(/[ \t]+/);
  if (words.length !== 2) return null;
  return { key: words[0]!, value: words[1]!, missingColon: true };
}

function addSitemap(robots: Robots, value: string, baseUrl: string | undefined, line: number) {
  try {
    const url = new URL(value, baseUrl).href;
    if (!robots.sitemaps.includes(url)) robots.sitemaps.push(url);
  } catch {
    robots.issues.push({ line, message: `Sitemap "${value}" is not a valid URL` });
  }
}

/** Robots for a site without a usable file, per RFC 9309 §2.3.1.3 and §2.3.1.4. */
export function createRobotsForMode(mode: "allow-all" | "disallow-all"): Robots {
  return { mode, groups: [], sitemaps: [], issues: [], otherRecords: [], truncated: false };
}

/** The product token of a user-agent string: "SiteAuditBot/1.0 (+…)" → "SiteAuditBot". */
export function extractProductToken(userAgent: string): string {
  return userAgent.trim().match(/^[A-Za-z_-]+/)?.[0] ?? userAgent.trim();
}

/** RFC 9309 §2.2.1: a product token is letters, "_" and "-" only, and not empty. */
export function isValidProductToken(token: string): boolean {
  return /^[A-Za-z_-]+$/.test(token);
}

/**
 * What a user-agent line names, as Google reads it: `*` (alone or followed by a blank) is every crawler;
 * otherwise the token is the value up to its first character that cannot be in a token, so
 * "Googlebot/2.1" and "Googlebot Images" both name Googlebot.
 */
function groupAgent(value: string): { all: true } | { all: false; token: string } {
  if (/^\*(?:\s|$)/.test(value)) return { all: true };
  return { all: false, token: (value.match(/^[A-Za-z_-]*/)?.[0] ?? "").toLowerCase() };
}

/**
 * The token a crawler is matched by: a full user-agent of the form "Token/version …" stands for its token;
 * anything else is compared whole, so "Foo Bar" (not a valid token) names no group, where "Foo" would.
 */
function crawlerToken(agent: string): string {
  const head = agent.split("/", 1)[0]!;
  return (agent.includes("/") && isValidProductToken(head) ? head : agent).toLowerCase();
}

/** Decides whether the crawler with `productToken` may fetch `url` (RFC 9309 §2.2). */
/** The indexes of the groups that apply to a crawler: those naming its token, else the `*` groups. */
export function selectGroups(
  robots: Robots,
  productToken: string,
): { indexes: number[]; group: RobotsMatch["group"] } {
  const token = crawlerToken(productToken);
  const agents = (g: RobotsGroup) => g.userAgents.map(groupAgent);
  const pick = (keep: (a: ReturnType<typeof groupAgent>) => boolean) =>
    robots.groups.flatMap((g, i) => (agents(g).some(keep) ? [i] : []));
  const specific = pick((a) => !a.all && a.token === token);
  if (specific.length > 0) return { indexes: specific, group: "specific" };
  const wildcard = pick((a) => a.all);
  return { indexes: wildcard, group: wildcard.length > 0 ? "wildcard" : "none" };
}

export function matchRobots(robots: Robots, productToken: string, url: string): RobotsMatch {
  if (robots.mode !== "rules") return { allowed: robots.mode === "allow-all", rule: null, group: "none" };
  const selected = selectGroups(robots, productToken);
  const groups = selected.indexes.map((i) => robots.groups[i]!);
  const group = selected.group;
  const path = pathOf(url);
  // §2.2.3: /robots.txt itself is always allowed.
  if (path === "/robots.txt") return { allowed: true, rule: null, group };

  let best: RobotsRule | null = null;
  for (const rule of groups.flatMap((g) => g.rules)) {
    if (!matchesPattern(rule.pattern, path)) continue;
    const longer = !best || rule.pattern.length > best.pattern.length;
    // §2.2.2: the longest match wins; on a tie the least restrictive (allow) rule wins.
    const tieWonByAllow = best && rule.pattern.length === best.pattern.length && rule.allow && !best.allow;
    if (longer || tieWonByAllow) best = rule;
  }
  return { allowed: best ? best.allow : true, rule: best, group };
}

export function isAllowedByRobots(robots: Robots, productToken: string, url: string): boolean {
  return matchRobots(robots, productToken, url).allowed;
}

export interface BotAccess extends BotToken, RobotsMatch {}

/** For one URL, which of the known AI and search bots robots.txt lets in. */
export function checkBotAccess(
  robots: Robots,
  url: string,
  bots: readonly BotToken[] = BOT_TOKENS,
): BotAccess[] {
  return bots.map((bot) => ({ ...bot, ...matchRobots(robots, bot.token, url) }));
}

export interface RobotsFetchResult {
  /** The robots.txt URL asked for. */
  url: string;
  /** HTTP status of the final response; null when it could not be fetched. */
  status: number | null;
  robots: Robots;
  /** Why the file could not be fetched (the fetcher's code and message). */
  error?: { code: FetchErrorCode; message: string };
}

/**
 * Fetches /robots.txt of the site of `siteUrl`. Refused targets and invalid URLs are the
 * caller's problem (they rethrow); every other outcome maps to an RFC 9309 mode.
 */
export async function fetchRobotsTxt(
  fetch: GuardedFetch,
  siteUrl: string,
  options: Pick<GuardedFetchOptions, "signal" | "timeoutMs"> = {},
): Promise<RobotsFetchResult> {
  const url = new URL("/robots.txt", siteUrl).href;
  try {
    // Read well past the parse limit so an oversized file is truncated, not refused; a file
    // too big even for that is treated like an unreachable one.
    const res = await fetch(url, { ...options, maxBytes: ROBOTS_MAX_BYTES * 4 });
    if (res.status >= 200 && res.status < 300) {
      return { url, status: res.status, robots: parseRobotsTxt(res.body, res.finalUrl) };
    }
    // Google reads 429 as "unreachable" too: the site is asking crawlers to back off.
    const unavailable = res.status >= 400 && res.status < 500 && res.status !== 429;
    return {
      url,
      status: res.status,
      robots: createRobotsForMode(unavailable ? "allow-all" : "disallow-all"),
    };
  } catch (err) {
    if (!(err instanceof FetchError) || err.code === "TARGET_FORBIDDEN" || err.code === "INVALID_URL")
      throw err;
    return { url, status: null, robots: createRobotsForMode("disallow-all"), error: describeFetchError(err) };
  }
}

function describeFetchError(err: FetchError) {
  return { code: err.code, message: err.message };
}

/**
 * Path and query of a URL as robots rules see them. An http(s) URL is parsed as a crawler would request it
 * (percent-encoded, dot segments resolved); anything else is read as Google's matcher reads it: an optional
 * "scheme://" and "//", then the host up to the first "/", "?" or ";", the fragment dropped, "/" when nothing is
 * left ("example.com/a;b#c" → "/a;b", "a/b" → "/b").
 */
function pathOf(url: string): string {
  if (/^https?:\/\//i.test(url)) {
    try {
      const parsed = new URL(url);
      // An empty query ("/path?") is still part of what is requested, though `search` drops it.
      const query = parsed.search || (parsed.href.split("#")[0]!.endsWith("?") ? "?" : "");
      return escapeSpecials(normalisePath(`${parsed.pathname}${query}`));
    } catch {
      // Not a valid URL after all: read it the lenient way below.
    }
  }
  return escapeSpecials(normalisePath(lenientPath(url)));
}

function lenientPath(url: string): string {
  const searchStart = url.startsWith("//") ? 2 : 0;
  const earlyPath = indexOfAny(url, "/?;", searchStart);
  let protocolEnd = url.indexOf("://", searchStart);
  if (protocolEnd < 0 || (earlyPath >= 0 && earlyPath < protocolEnd)) protocolEnd = searchStart;
  else protocolEnd += 3;
  const pathStart = indexOfAny(url, "/?;", protocolEnd);
  if (pathStart < 0) return "/";
  const hash = url.indexOf("#", searchStart);
  if (hash >= 0 && hash < pathStart) return "/";
  const path = url.slice(pathStart, hash < 0 ? undefined : hash);
  return path.startsWith("/") ? path : `/${path}`;
}

function indexOfAny(text: string, chars: string, from: number): number {
  for (let i = from; i < text.length; i++) if (chars.includes(text[i]!)) return i;
  return -1;
}

/** A literal `*` or `$` in a URL can only be matched by a pattern that writes it %2A / %24. */
function escapeSpecials(path: string) {
  return path.replaceAll("*", "%2A").replaceAll("$", "%24");
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * §2.2.2: non-ASCII octets are percent-encoded, escapes of unreserved characters decoded, and
 * hex digits upper-cased, so "/%7Efoo", "/~foo" and "/%7efoo" compare equal.
 */
export function normalisePath(value: string): string {
  const bytes = Buffer.from(value, "utf8");
  let out = "";
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === 0x25 && i + 2 < bytes.length && isHex(bytes[i + 1]!) && isHex(bytes[i + 2]!)) {
      const hex = String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!).toUpperCase();
      const char = String.fromCharCode(Number.parseInt(hex, 16));
      out += UNRESERVED.test(char) ? char : `%${hex}`;
      i += 2;
    } else if (byte >= 0x80 || byte <= 0x20) {
      out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    } else {
      out += String.fromCharCode(byte);
    }
  }
  return out;
}

function isHex(byte: number) {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);
}

/**
 * `*` matches any run of characters, a final `$` anchors the end; a pattern otherwise matches a prefix.
 * The pieces between `*`s are found left to right, each at its earliest place after the previous one (the
 * earliest place never loses a match), so the cost is linear in the path per piece with no backtracking.
 * Tracking every reachable position instead cost pattern length × path length: a 500 KB robots.txt of `*a*a…`
 * took seconds per URL.
 */
export function matchesPattern(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith("$");
  const pieces = (anchored ? pattern.slice(0, -1) : pattern).split("*");
  const first = pieces[0] ?? "";
  if (!path.startsWith(first)) return false;
  let pos = first.length;
  if (pieces.length === 1) return !anchored || pos === path.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i]!;
    const at = path.indexOf(piece, pos);
    if (at < 0) return false;
    pos = at + piece.length;
  }
  const last = pieces[pieces.length - 1]!;
  if (anchored) return path.length - last.length >= pos && path.endsWith(last);
  return path.indexOf(last, pos) >= 0;
}
