const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

/**
 * HTTPS is required in production (REQUIRE_HTTPS, default on when NODE_ENV=production).
 * The protocol is the request URL's or, behind a TLS-terminating proxy, X-Forwarded-Proto.
 * Loopback hosts are exempt so the service can be run and checked locally.
 */
export function isInsecureRequest(req: Request, url: URL): boolean {
  const required =
    (process.env.REQUIRE_HTTPS ?? (process.env.NODE_ENV === "production" ? "true" : "false")) === "true";
  if (!required) return false;
  const host = (req.headers.get("host") ?? url.host).replace(/:\d+$/, "");
  if (LOOPBACK.test(host)) return false;
  const forwarded = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  const proto = forwarded || url.protocol.replace(":", "");
  return proto !== "https";
}

export const HSTS = "max-age=63072000; includeSubDomains";

/**
 * The client address for per-IP limits. The production server (server.ts) drops whatever forwarding
 * headers a client sent and sets X-Forwarded-For to the one address it resolved from the socket and
 * TRUST_PROXY; a deployment without it must sit behind a proxy that overwrites the header.
 */
export function clientIp(req: Request): string {
  return clientIpFromHeaders(req.headers);
}

/** clientIp for code that has the headers only (server actions read them from next/headers). */
export function clientIpFromHeaders(headers: Headers): string {
  const hops = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  return hops[hops.length - 1] ?? "unknown";
}
