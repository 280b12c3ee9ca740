import http, { type IncomingMessage, type ServerResponse } from "node:http";
import net, { type AddressInfo, type LookupFunction, type Socket } from "node:net";
import {
  findAddressViolation,
  isIpLiteral,
  isMetadataHostname,
  type PrivateTargetPolicy,
  unbracket,
} from "@/lib/fetch/address-policy";
import {
  lookupAllowed,
  type ResolvedAddress,
  type Resolver,
  resolveWithSystemDns,
} from "@/lib/fetch/guarded-fetch";

export interface EgressRefusal {
  /** The URL (plain HTTP) or host:port (a CONNECT tunnel) the browser asked for. */
  target: string;
  hostname: string;
  reason: string;
}

export interface EgressProxy {
  /** http://127.0.0.1:PORT, for Chromium's --proxy-server. */
  url: string;
  refusals: EgressRefusal[];
  /** Requests and tunnels let through, for the record. */
  allowedCount(): number;
  close(): Promise<void>;
}

export interface EgressProxyOptions {
  policy: PrivateTargetPolicy;
  resolver?: Resolver;
}

const HOP_BY_HOP = new Set([
  "proxy-connection",
  "proxy-authorization",
  "connection",
  "keep-alive",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/**
 * A forward proxy on 127.0.0.1 that the headless browser must use for every request. It resolves each
 * target itself, refuses any whose addresses break the outbound policy, and connects to exactly the
 * addresses it checked, so DNS rebinding between the check and the connection has no say.
 */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const resolver = options.resolver ?? resolveWithSystemDns;
  const refusals: EgressRefusal[] = [];
  const sockets = new Set<Socket>();
  let allowed = 0;

  async function admit(target: string, hostname: string): Promise<ResolvedAddress[] | null> {
    const bare = unbracket(hostname);
    const verdict = await checkHost(bare, options.policy, resolver);
    if ("reason" in verdict) {
      refusals.push({ target, hostname: bare, reason: verdict.reason });
      return null;
    }
    allowed += 1;
    return verdict.addresses;
  }

  const server = http.createServer((req, res) => {
    void forwardRequest(req, res, admit);
  });
  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    void openTunnel(req, client, head, admit, sockets);
  });
  // Chromium tunnels WebSockets through CONNECT; a plain upgrade request is not something it sends.
  server.on("upgrade", (_req: IncomingMessage, socket: Socket) => socket.destroy());
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refusals,
    allowedCount: () => allowed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

type Admit = (target: string, hostname: string) => Promise<ResolvedAddress[] | null>;

/** A socket lookup that answers with the addresses already checked, never asking DNS again. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    const first = addresses[0] as ResolvedAddress;
    if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  }) as unknown as LookupFunction;
}

async function forwardRequest(req: IncomingMessage, res: ServerResponse, admit: Admit) {
  let target: URL;
  try {
    target = new URL(req.url ?? "");
  } catch {
    return refuse(res, 400, "The proxy only takes absolute http URLs.");
  }
  if (target.protocol !== "http:")
    return refuse(res, 400, "Only http URLs are forwarded; https goes through CONNECT.");
  const addresses = await admit(target.href, target.hostname).catch(() => null);
  if (!addresses) return refuse(res, 403, "Refused by the service's outbound address policy.");

  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  const upstream = http.request({
    host: target.hostname.replace(/^\[|\]$/g, ""),
    lookup: pinnedLookup(addresses),
    port: Number(target.port || 80),
    method: req.method,
    path: `${target.pathname}${target.search}`,
    headers: { ...headers, host: target.host, connection: "close" },
    setHost: false,
  });
  upstream.on("response", (answer) => {
    const out: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
    }
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
    answer.pipe(res);
  });
  upstream.on("error", () => {
    if (!res.headersSent) refuse(res, 502, "The target did not answer.");
    else res.destroy();
  });
  res.on("close", () => upstream.destroy());
  req.pipe(upstream);
}

async function openTunnel(
  req: IncomingMessage,
  client: Socket,
  head: Buffer,
  admit: Admit,
  sockets: Set<Socket>,
) {
  client.on("error", () => client.destroy());
  const authority = req.url ?? "";
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
  if (!match) {
    client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
    return;
  }
  const [, host = "", port = ""] = match;
  const addresses = await admit(authority, host).catch(() => null);
  if (!addresses) {
    client.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n");
    return;
  }
  const upstream = net.connect({
    host: unbracket(host),
    port: Number(port),
    lookup: pinnedLookup(addresses),
    autoSelectFamily: true,
  });
  sockets.add(upstream);
  upstream.on("close", () => sockets.delete(upstream));
  upstream.once("connect", () => {
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on("error", () => {
    if (client.writable && upstream.connecting) client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
    else client.destroy();
  });
  client.on("close", () => upstream.destroy());
}

/**
 * The address to connect to, or why the host may not be reached under `policy`: the guarded fetcher's
 * rules, and the connection goes to the very address that was checked.
 */
async function checkHost(
  hostname: string,
  policy: PrivateTargetPolicy,
  resolver: Resolver,
): Promise<{ addresses: ResolvedAddress[] } | { reason: string }> {
  if (isMetadataHostname(hostname)) return { reason: "cloud metadata host" };
  if (isIpLiteral(hostname)) {
    const violation = findAddressViolation(hostname, policy);
    if (violation) return { reason: violation };
    return { addresses: [{ address: hostname, family: hostname.includes(":") ? 6 : 4 }] };
  }
  try {
    return { addresses: await lookupAllowed(hostname, resolver, policy) };
  } catch (err) {
    return { reason: err instanceof Error ? err.message : "the host could not be resolved" };
  }
}

function refuse(res: ServerResponse, status: number, message: string) {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", connection: "close" });
  res.end(message);
}
