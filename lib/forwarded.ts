// Who is the client and did it come over TLS? Only the socket knows for sure; X-Forwarded-For and
// X-Forwarded-Proto are believed only from the proxies TRUST_PROXY names, because anyone can send them.
import ipaddr from "ipaddr.js";

/** Which peers may tell us the client address: none, the nearest N hops, or peers inside these CIDRs. */
export type TrustProxy =
  | { kind: "none" }
  | { kind: "hops"; hops: number }
  | { kind: "cidrs"; ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] };

export class TrustProxyError extends Error {
  constructor(value: string) {
    super(
      `TRUST_PROXY="${value}" is neither a hop count (0, 1, 2…) nor a comma-separated list of addresses or CIDRs (e.g. 10.0.0.0/8, ::1).`,
    );
    this.name = "TrustProxyError";
  }
}

/** Parses TRUST_PROXY: empty, "0" or "false" trusts no one; "1" the nearest proxy; "10.0.0.0/8, ::1" those peers. */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = (raw ?? "").trim();
  if (value === "" || value === "0" || value.toLowerCase() === "false") return { kind: "none" };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (!Number.isSafeInteger(hops) || hops > 100) throw new TrustProxyError(value);
    return { kind: "hops", hops };
  }
  const ranges = value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part): [ipaddr.IPv4 | ipaddr.IPv6, number] => {
      try {
        if (part.includes("/")) return ipaddr.parseCIDR(part);
        const addr = ipaddr.process(part);
        return [addr, addr.kind() === "ipv4" ? 32 : 128];
      } catch {
        throw new TrustProxyError(value);
      }
    });
  if (ranges.length === 0) throw new TrustProxyError(value);
  return { kind: "cidrs", ranges };
}

/** An address in canonical form (IPv4-mapped IPv6 as plain IPv4), or null when it is not an IP address. */
function normaliseIp(raw: string | undefined): string | null {
  if (!raw) return null;
  let text = raw.trim();
  // "[::1]:8080", "203.0.113.9:5000": proxies sometimes keep the port.
  const bracketed = text.match(/^\[([^\]]+)\](?::\d+)?$/);
  if (bracketed) text = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(text)) text = text.replace(/:\d+$/, "");
  if (!ipaddr.isValid(text)) return null;
  return ipaddr.process(text).toString();
}

function isTrusted(trust: TrustProxy, ip: string): boolean {
  // "unknown" (a socket without an address) or a log's host name is no proxy anyone trusts.
  if (trust.kind !== "cidrs" || !ipaddr.isValid(ip)) return false;
  const addr = ipaddr.process(ip);
  return trust.ranges.some(
    ([range, bits]) => range.kind() === addr.kind() && addr.match([range, bits] as never),
  );
}

export interface ClientFacts {
  ip: string;
  proto: "http" | "https";
}

const firstValue = (header: string | string[] | undefined) =>
  (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",")[0]?.trim().toLowerCase();

/**
 * The client address and scheme from the socket and, for trusted peers only, the forwarding headers.
 * Hop count N: the address N entries back from the socket in X-Forwarded-For. CIDRs: walk back from the
 * socket while the current hop is a trusted proxy. X-Forwarded-Proto counts only when the socket's peer
 * is trusted.
 */
export function resolveClient(
  socket: { remoteAddress?: string; encrypted?: boolean },
  headers: { "x-forwarded-for"?: string | string[]; "x-forwarded-proto"?: string | string[] },
  trust: TrustProxy,
): ClientFacts {
  const peer = normaliseIp(socket.remoteAddress) ?? "unknown";
  const ownProto = socket.encrypted ? "https" : "http";
  if (trust.kind === "none") return { ip: peer, proto: ownProto };
  const xff = headers["x-forwarded-for"];
  const hops = (Array.isArray(xff) ? xff.join(",") : (xff ?? ""))
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  const peerTrusted = trust.kind === "hops" ? trust.hops > 0 : peer !== "unknown" && isTrusted(trust, peer);
  const forwardedProto = firstValue(headers["x-forwarded-proto"]);
  const proto =
    peerTrusted && (forwardedProto === "https" || forwardedProto === "http") ? forwardedProto : ownProto;
  // The chain as seen from here: [client, proxy1, …, the socket's peer].
  const chain = [...hops, peer];
  let index = chain.length - 1;
  if (trust.kind === "hops") {
    index = Math.max(0, chain.length - 1 - trust.hops);
  } else {
    while (index > 0 && isTrusted(trust, chain[index]!)) {
      const previous = normaliseIp(chain[index - 1]);
      // A trusted proxy that forwarded garbage: the client is unknown beyond it; keep the proxy.
      if (!previous) break;
      chain[index - 1] = previous;
      index--;
    }
  }
  const ip = index === chain.length - 1 ? peer : (normaliseIp(chain[index]) ?? peer);
  return { ip, proto };
}

/** Headers a client could use to claim an address, scheme or host: never passed on as the client sent them. */
export const FORWARDING_HEADERS = [
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-proto",
  "x-forwarded-host",
  "x-forwarded-port",
  "x-forwarded-server",
  "x-forwarded-ssl",
  "x-real-ip",
  "x-client-ip",
  "true-client-ip",
  "cf-connecting-ip",
] as const;
