// The edge of every /api path, ahead of both mounts (the lean /api/v1 dispatcher and Next): the requests
// neither mount can answer in the envelope. Next answers a malformed percent-encoding in the path with a
// text/plain 500, a method outside its list (PROPFIND, LOCK, SEARCH…) with an empty 400, and CONNECT is not
// even a request to Node. Here they get the envelope: 400 VALIDATION_ERROR (reason `malformed_path`), the
// route's own 405 with `Allow` (after its authentication, as for PUT on a GET route), or the unknown path's
// 404, each with its request id and rate-limit headers.
import type http from "node:http";
import type { Duplex } from "node:stream";
import type { TLSSocket } from "node:tls";
import { otherMethodHandler, type RouteHandler, withPublicApi } from "@/lib/api/handler";
import { malformedPath, unknownLegacyPath, unknownPath } from "@/lib/api/unknown-path";
import { AppError } from "@/lib/errors";
import { compileRoutes, type RouteModule, sendWebResponse } from "./api-dispatch";

/** The methods route files export (Next's list; HEAD is GET's). Every other method is this edge's. */
export const ROUTE_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * One route under /api: its module (whose `methods`/`anyMethod` exports say how it answers other methods),
 * or, for routes that are not the API's (next-auth, the dashboard's session reads, Stripe's webhook), just
 * the methods the file exports.
 */
export type EdgeRoute = { path: string; module: RouteModule } | { path: string; methods: string[] };

/** Does a segment of the path fail to decode (`%ZZ`, `%E0%A4%A`, an overlong or lone UTF-8 escape)? */
export function hasMalformedEscape(pathname: string): boolean {
  if (!pathname.includes("%")) return false;
  for (const segment of pathname.split("/")) {
    if (!segment.includes("%")) continue;
    try {
      decodeURIComponent(segment);
    } catch {
      return true;
    }
  }
  return false;
}

const isApiPath = (pathname: string) => pathname === "/api" || pathname.startsWith("/api/");
const pathOf = (rawUrl: string) => {
  const q = rawUrl.indexOf("?");
  return q === -1 ? rawUrl : rawUrl.slice(0, q);
};

/** A GET-shaped Web Request carrying the node request's headers: these answers never read a body. */
function headersOnlyRequest(req: http.IncomingMessage, pathname: string): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A header value fetch refuses (Node's parser is laxer): left out, as no answer here depends on it.
    }
  }
  const proto = (req.socket as TLSSocket).encrypted ? "https" : "http";
  // The Host header plays no part in any answer; the path is kept as sent (escapes and all).
  const safePath = pathname.startsWith("/") ? pathname : "/";
  return new Request(new URL(safePath.replace(/[^\x21-\x7e]/g, encodeURIComponent), `${proto}://localhost`), {
    headers,
  });
}

export interface ApiEdge {
  /** Answers the request when it is one of the edge's (true), or leaves it to the mounts (false). */
  handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean>;
}

export function createApiEdge(routes: EdgeRoute[]): ApiEdge {
  const compiled = compileRoutes(
    routes.map((r) => ({
      path: r.path,
      module: "module" in r ? r.module : { __methods: r.methods },
    })),
  );
  const malformed = withPublicApi(malformedPath);
  const notFoundV1 = withPublicApi(unknownPath);
  const notFoundLegacy = withPublicApi(unknownLegacyPath);

  /** The route's answer to a method outside GET…OPTIONS: its own 405 (or 404), or one built from its exports. */
  const otherMethod = (pathname: string, method: string): { handler: RouteHandler; params: unknown } => {
    for (const route of compiled) {
      const m = route.pattern.exec(pathname);
      if (!m) continue;
      const params: Record<string, string | string[]> = {};
      route.names.forEach((name, i) => {
        const raw = m[i + 1]!;
        params[name] =
          route.catchAll && i === route.names.length - 1
            ? raw.split("/").map(decodeURIComponent)
            : decodeURIComponent(raw);
      });
      const listed = (route.module as { __methods?: string[] }).__methods;
      const handler =
        (listed ? undefined : otherMethodHandler(route.module, method)) ??
        refuseWithAllow(method, listed ?? exportedMethods(route.module));
      return { handler, params: route.names.length ? params : undefined };
    }
    return { handler: pathname.startsWith("/api/v1") ? notFoundV1 : notFoundLegacy, params: undefined };
  };

  return {
    async handle(req, res) {
      const method = req.method ?? "GET";
      const pathname = pathOf(req.url ?? "/");
      // CONNECT names a host, not a path: it is refused wherever it is sent.
      if (method !== "CONNECT" && !isApiPath(pathname)) return false;
      let handler: RouteHandler;
      let params: unknown;
      if (hasMalformedEscape(pathname)) handler = malformed;
      else if (ROUTE_METHODS.has(method)) return false;
      else if (isApiPath(pathname)) ({ handler, params } = otherMethod(pathname, method));
      else handler = refuseWithAllow(method, [...ROUTE_METHODS]);
      // The body (if any) is not read: drain it so the connection can carry the next request.
      req.resume();
      const response = await handler(headersOnlyRequest(req, pathname), {
        params: Promise.resolve(params as Record<string, string | string[]>),
      });
      await sendWebResponse(response, res, { head: method === "HEAD" });
      return true;
    },
  };
}

function exportedMethods(module: RouteModule): string[] {
  return ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => typeof module[m] === "function");
}

/** A 405 naming the methods a route without its own refusal allows (the per-IP limit, the envelope). */
function refuseWithAllow(method: string, allowed: string[]): RouteHandler {
  const allow = allowed.join(", ");
  return withPublicApi(async () => {
    throw new AppError(
      "METHOD_NOT_ALLOWED",
      `${method} is not allowed here. Allowed: ${allow}.`,
      { allow: allowed },
      { Allow: allow },
    );
  });
}

/**
 * Node hands CONNECT to the server's "connect" event, not to its request handler: answer it as a request
 * (through `handler`, which sends it to the edge) on a response bound to the socket, then close.
 */
export function answerConnect(
  server: http.Server,
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> | void,
  ServerResponse: typeof http.ServerResponse,
): void {
  server.on("connect", (req: http.IncomingMessage, socket: Duplex) => {
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as never);
    res.once("finish", () => socket.end());
    socket.on("error", () => socket.destroy());
    Promise.resolve(handler(req, res)).catch(() => socket.destroy());
  });
}
