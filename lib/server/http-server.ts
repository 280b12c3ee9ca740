// The HTTP server that owns the socket. Next's own server only fills X-Forwarded-For/-Proto when they are
// absent, so behind it a route cannot tell a client's claim from the socket's address. This server drops
// every forwarding header a client sent and writes its own, resolved per TRUST_PROXY, before Next sees it.
import http from "node:http";
import type { TLSSocket } from "node:tls";
import { redactDbError } from "@/lib/db/errors";
import { answerConnect } from "./api-edge";
import { FORWARDING_HEADERS, resolveClient, type TrustProxy } from "./forwarded";

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> | void;

const STRIPPED = new Set<string>(FORWARDING_HEADERS);

/** Rewrites the request's forwarding headers in place: the resolved client address and scheme only. */
function rewriteForwardedHeaders(req: http.IncomingMessage, trust: TrustProxy): void {
  const client = resolveClient(
    { remoteAddress: req.socket.remoteAddress, encrypted: (req.socket as TLSSocket).encrypted },
    {
      "x-forwarded-for": req.headers["x-forwarded-for"],
      "x-forwarded-proto": req.headers["x-forwarded-proto"],
    },
    trust,
  );
  for (const name of Object.keys(req.headers)) {
    if (STRIPPED.has(name) || name.startsWith("x-forwarded-")) delete req.headers[name];
  }
  // rawHeaders is what some readers (and Next's adapters) copy from: keep it in step.
  const raw: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    if (STRIPPED.has(name) || name.startsWith("x-forwarded-")) continue;
    raw.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
  req.rawHeaders.splice(0, req.rawHeaders.length, ...raw);
  req.headers["x-forwarded-for"] = client.ip;
  req.headers["x-forwarded-proto"] = client.proto;
  req.rawHeaders.push("X-Forwarded-For", client.ip, "X-Forwarded-Proto", client.proto);
}

/**
 * An http.Server that rewrites the forwarding headers of every request, then hands it to `handler`; a CONNECT
 * (which Node does not treat as a request) reaches `handler` too, on a response bound to its socket.
 */
export function createAppServer(handler: Handler, trust: TrustProxy): http.Server {
  const server = http.createServer((req, res) => {
    try {
      rewriteForwardedHeaders(req, trust);
    } catch {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end("Bad request.\n");
      return;
    }
    Promise.resolve(handler(req, res)).catch((err: unknown) => {
      console.error("[server] request failed", redactDbError(err));
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end();
    });
  });
  answerConnect(
    server,
    (req, res) => {
      server.emit("request", req, res);
    },
    http.ServerResponse,
  );
  return server;
}
