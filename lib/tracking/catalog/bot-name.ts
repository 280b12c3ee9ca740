// Naming a bot that our own table does not know: the product token the bot gives itself ("360Spider",
// "AhrefsBot", "python-requests"), normalised (no version, no URL, no browser or platform word).

const MAX_NAME = 64;
// Words of browsers, platforms and HTTP that never name a bot on their own.
const NOT_A_NAME = new Set(
  [
    "mozilla",
    "applewebkit",
    "khtml",
    "gecko",
    "like",
    "chrome",
    "chromium",
    "safari",
    "version",
    "mobile",
    "firefox",
    "edg",
    "edge",
    "opr",
    "opera",
    "compatible",
    "msie",
    "trident",
    "presto",
    "windows",
    "win64",
    "wow64",
    "x64",
    "x11",
    "linux",
    "android",
    "ubuntu",
    "macintosh",
    "intel",
    "mac",
    "iphone",
    "ipad",
    "cpu",
    "build",
    "http",
    "https",
    "www",
    "com",
    "html",
    "htm",
    "en",
    "en-us",
    "u",
    "wv",
    "slcc2",
    "media",
    "net",
    "clr",
    "yabrowser",
    "ref",
    "os",
    "nt",
    "rv",
    "report",
    "bot",
    "crawler",
    "spider",
  ].map((w) => w.toLowerCase()),
);
const BOT_WORD =
  /bot|crawl|spider|slurp|fetch|scrap|index|archiv|monitor|checker|validat|scanner|reader|agent/i;
const URL_RE = /(?:https?:\/\/|www\.)[^\s;)]*|[\w.+-]+(?:@|\[at\])[\w.-]+/gi;

/** Drops a trailing version ("Mnogosearch-3.1.21" -> "Mnogosearch", "linkdex.com/v2.0" -> "linkdex.com"). */
function stripVersion(token: string): string {
  return token
    .replace(/\/.*$/, "")
    .replace(/[-_ ]v?\d[\w.]*$/i, "")
    .replace(/^[-_.]+|[-_.]+$/g, "");
}

/** A usable name: has a letter, is not a browser/platform word, a version, a hex id or a domain suffix. */
function isGoodName(name: string): boolean {
  if (name.length < 2 || name.length > MAX_NAME) return false;
  if (!/^[A-Za-z0-9][\w.-]*(?: [A-Za-z][\w.-]*)*$/.test(name)) return false;
  if (!/[A-Za-z]{2}/.test(name)) return false;
  if (/^[0-9a-f]{6,}(?:-[0-9a-f]+)*$/i.test(name)) return false; // a hex id or UUID
  if (/^[a-z]{2}[-_][a-z]{2}$/i.test(name)) return false; // a locale ("zh-cn")
  return !NOT_A_NAME.has(name.toLowerCase());
}

interface Token {
  name: string;
  index: number;
}

/** The product-like tokens of a user agent outside its URLs and e-mail addresses, in order. */
function tokensOf(userAgent: string): Token[] {
  const text = userAgent.replace(URL_RE, (m) => " ".repeat(m.length));
  const tokens: Token[] = [];
  for (const m of text.matchAll(/[A-Za-z0-9][\w.-]*(?:\/[\w.]+)?/g)) {
    const name = stripVersion(m[0]);
    if (isGoodName(name)) tokens.push({ name, index: m.index });
  }
  return tokens;
}

/**
 * The product a bot's user agent names: a word that says it is a crawler ("360Spider"), the
 * "(compatible; Name" slot, the leading "Name/1.0", the last product token that is not a browser's, or
 * the host of its contact URL.
 */
function productToken(userAgent: string): string | null {
  const tokens = tokensOf(userAgent);
  const crawlerWord = tokens.find((t) => BOT_WORD.test(t.name));
  if (crawlerWord) return crawlerWord.name;
  const compatible = /compatible;\s*([^;)]+?)\s*(?:[;)]|$)/i.exec(userAgent.replace(URL_RE, ""));
  if (compatible?.[1]) {
    const name = stripVersion(compatible[1].replace(/^\+/, "").trim());
    if (isGoodName(name) && !/^MSIE\b/i.test(name)) return name;
  }
  const leading = tokens[0];
  if (leading && leading.index <= 1 && !/^Mozilla\//i.test(userAgent)) return leading.name;
  const productTokens = tokens.filter((t) => userAgent.slice(t.index).startsWith(`${t.name}/`));
  const last = productTokens.at(-1) ?? tokens.at(-1);
  if (last) return last.name;
  const host = /(?:https?:\/\/|\bwww\.|@)(?:www\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})/i.exec(
    userAgent,
  )?.[1];
  return host ?? null;
}

// "exabot" found inside "+http://www.exabot.com/go/robot" names a web site, not the product.
function isInsideUrl(userAgent: string, index: number): boolean {
  for (const m of userAgent.matchAll(URL_RE)) {
    if (index >= m.index && index < m.index + m[0].length) return true;
  }
  return false;
}

/** Grows a match to the whole word around it and drops any version part. */
function expandMatch(userAgent: string, index: number, text: string): string {
  const cut = text.search(/[/;,()+]/);
  const core = (cut === -1 ? text : text.slice(0, cut)).trim();
  if (core === "") return "";
  const offset = userAgent.indexOf(core, index);
  const from = offset === -1 ? index : offset;
  let start = from;
  let end = from + core.length;
  while (start > 0 && /[\w-]/.test(userAgent[start - 1] as string)) start--;
  while (end < userAgent.length && /[\w-]/.test(userAgent[end] as string)) end++;
  return stripVersion(userAgent.slice(start, end));
}

/** A readable name for a bot found by a detector's match at `index`. */
export function deriveBotName(userAgent: string, match: { index: number; text: string } | null): string {
  if (match && !isInsideUrl(userAgent, match.index)) {
    const expanded = expandMatch(userAgent, match.index, match.text);
    if (isGoodName(expanded)) return expanded;
  }
  return (productToken(userAgent) ?? "Unknown bot").slice(0, MAX_NAME);
}
