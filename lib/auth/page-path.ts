/** A request header the proxy sets on page requests: the path and query the visitor asked for. */
export const PAGE_PATH_HEADER = "x-page-path";

/**
 * Where to send a signed-out visitor of `pagePath`: the sign-in page, told to come back there. Only a dashboard
 * path (no control characters, at most 1,000 characters) is carried; anything else signs in to the overview.
 */
export function signInPathFor(pagePath: string | null | undefined): string {
  if (
    !pagePath ||
    pagePath.length > 1000 ||
    !/^\/dashboard(?:[/?#]|$)/.test(pagePath) ||
    [...pagePath].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f || ch === "\\")
  ) {
    return "/login";
  }
  return pagePath === "/dashboard" ? "/login" : `/login?next=${encodeURIComponent(pagePath)}`;
}
