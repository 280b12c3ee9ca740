// The cross-site request check for server actions. Next already compares Origin with Host before running an
// action; this states the rule in our code so it holds (and is tested) whatever the framework does.

/** Origins the service is configured to be reached at, besides the request's own Host. */
export function configuredOrigins(env: Record<string, string | undefined> = process.env): string[] {
  const origins: string[] = [];
  for (const value of [env.AUTH_URL, env.PUBLIC_BASE_URL]) {
    if (!value) continue;
    try {
      origins.push(new URL(value).origin);
    } catch {
      // A malformed setting adds no trusted origin.
    }
  }
  return origins;
}

/**
 * True when the browser says the request comes from this site: an `Origin` header is required (every
 * browser sends one on a POST), and it must name the host the request was sent to (`Host`, or the
 * `X-Forwarded-Host` a proxy set, as Next reads them) or one of the configured origins. A cross-site page
 * cannot forge either header: setting `X-Forwarded-Host` from a browser needs a CORS preflight we never grant.
 */
export function isSameOriginRequest(
  headers: Headers,
  trusted: readonly string[] = configuredOrigins(),
): boolean {
  const origin = headers.get("origin");
  if (!origin || origin === "null") return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (trusted.includes(url.origin)) return true;
  const hosts = [headers.get("x-forwarded-host")?.split(",")[0]?.trim(), headers.get("host")];
  return hosts.some((host) => Boolean(host) && host!.toLowerCase() === url.host.toLowerCase());
}
