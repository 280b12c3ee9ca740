// Naming a bot that our own table does not know: the word the detector matched when it is a real product
// token ("AhrefsBot", "python-requests"), otherwise the product token the user agent announces.

const MAX_NAME = 64;
const BROWSER_TOKENS = new Set([
  "mozilla",
  "applewebkit",
  "khtml",
  "gecko",
  "chrome",
  "chromium",
  "safari",
  "version",
  "mobile",
  "firefox",
  "edg",
  "edge",
  "opr",
  "like",
  "compatible",
]);
const WORD_CHAR = /[\w-]/;

function isGoodName(name: string): boolean {
  return (
    /^[A-Za-z][\w-]*(?: [\w-]+)*$/.test(name) && name.length >= 2 && !BROWSER_TOKENS.has(name.toLowerCase())
  );
}

/** Grows a match to the whole word around it and drops any "/version" part. */
function expandMatch(userAgent: string, index: number, text: string): string {
  const cut = text.search(/[/;,()+]/);
  const core = (cut === -1 ? text : text.slice(0, cut)).trim();
  if (core === "") return "";
  const offset = userAgent.indexOf(core, index);
  const from = offset === -1 ? index : offset;
  let start = from;
  let end = from + core.length;
  while (start > 0 && WORD_CHAR.test(userAgent[start - 1] as string)) start--;
  while (end < userAgent.length && WORD_CHAR.test(userAgent[end] as string)) end++;
  return userAgent.slice(start, end).replace(/^[-_]+|[-_]+$/g, "");
}

/** The product a user agent names: "(compatible; Name/1.0)", a leading "Name/1.0", or a *bot/*spider word. */
export function productToken(userAgent: string): string | null {
  const compatible = /compatible;\s*([A-Za-z][\w.-]*(?: [A-Za-z][\w.-]*)*?)\s*(?:[/;)]|$)/.exec(userAgent);
  if (compatible?.[1] && isGoodName(compatible[1]) && !/^MSIE\b/.test(compatible[1])) return compatible[1];
  const leading = /^([A-Za-z][\w.-]*)/.exec(userAgent.trim());
  if (leading?.[1] && isGoodName(leading[1])) return leading[1];
  const crawlerWord = /([A-Za-z][\w-]*(?:bot|crawler|spider|fetcher|scraper)[\w-]*)/i.exec(userAgent);
  if (crawlerWord?.[1] && isGoodName(crawlerWord[1])) return crawlerWord[1];
  for (const m of userAgent.matchAll(/([A-Za-z][\w-]*)\/[\d.]+/g)) {
    if (m[1] && isGoodName(m[1])) return m[1];
  }
  return null;
}

// "exabot" found inside "+http://www.exabot.com/go/robot" names a web site, not the product.
function isInsideUrl(userAgent: string, index: number, length: number): boolean {
  const before = userAgent[index - 1];
  const after = userAgent.slice(index + length, index + length + 2);
  return before === "." || before === "/" || /^\.[a-z]/i.test(after);
}

/** A readable name for a bot found by a detector's match at `index`. */
export function deriveBotName(userAgent: string, match: { index: number; text: string } | null): string {
  if (match && !isInsideUrl(userAgent, match.index, match.text.replace(/[/;,()+\s]+$/, "").length)) {
    const expanded = expandMatch(userAgent, match.index, match.text);
    if (isGoodName(expanded)) return expanded.slice(0, MAX_NAME);
  }
  return (productToken(userAgent) ?? "Unknown bot").slice(0, MAX_NAME);
}
