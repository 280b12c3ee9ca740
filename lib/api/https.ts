import ipaddr from "ipaddr.js";

/**
 * HTTPS is required in production (REQUIRE_HTTPS, default on when NODE_ENV=production).
 * The protocol is the request URL's or, behind a TLS-terminating proxy, X-Forwarded-Proto (which the
 * production server believes only from the proxies TRUST_PROXY names). A client on the loopback address is
 * exempt so the service can be run and checked on its own machine: the address is the socket's (as the
 * server resolved it, `clientIp`), never the Host header, which any client can set to `localhost`.
 */
export function isInsecureRequest(req: Request, url: URL): boolean {
  const required =
    (process.env.REQUIRE_HTTPS ?? (process.env.NODE_ENV === "production" ? "true" : "false")) === "true";
  if (!required) return false;
  if (isLoopbackAddress(clientIp(req))) return false;
  const forwarded = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  const proto = forwarded || url.protocol.replace(":", "");
  return proto !== "https";
}

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms; anything that is no address is not loopback. */
export function isLoopbackAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "loopback";
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
