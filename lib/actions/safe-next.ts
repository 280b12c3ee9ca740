// Where a sign-in, a sign-up or an OAuth sign-in sends the browser afterwards: a path on this site only.

/** A stand-in origin: only a path that stays on it is a path of this site, whatever the site's real address. */
const SITE = "https://site.invalid";
const FALLBACK = "/dashboard";
const MAX_LENGTH = 2000;

// Control characters (browsers drop a tab or a newline, so `/\t/evil.test` becomes `//evil.test`) and
// backslashes (read as slashes) anywhere, encoded ones in the path: no address of the dashboard needs them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
const REFUSED = /[\u0000-\u001f\u007f\\]|%(09|0a|0d|00)/i;
const REFUSED_IN_PATH = /%(2f|5c)/i;

/**
 * `value` when it is a same-origin path ("/dashboard/keys?x=1"), else "/dashboard". It is parsed as a URL
 * against a fixed origin and kept only when the result has that origin, so nothing that a browser could read
 * as another host (`//evil`, `/\evil`, `/%09/evil`, `https:evil`) gets through; the answer is the parsed path,
 * query and fragment, never the raw text.
 */
export function safeNext(value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LENGTH) return FALLBACK;
  if (!value.startsWith("/") || value.startsWith("//") || REFUSED.test(value)) return FALLBACK;
  if (REFUSED_IN_PATH.test(value.split(/[?#]/, 1)[0]!)) return FALLBACK;
  let url: URL;
  try {
    url = new URL(value, SITE);
  } catch {
    return FALLBACK;
  }
  if (url.origin !== SITE || url.username || url.password) return FALLBACK;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith("/") && !path.startsWith("//") ? path : FALLBACK;
}
