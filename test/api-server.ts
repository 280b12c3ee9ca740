import http from "node:http";
import type { AddressInfo } from "node:net";
import { API_EDGE_ROUTES, API_ROUTES } from "@/api-routes";
import { type DbHandle, setDbHandle } from "@/lib/db/client";
import { createApiDispatch } from "@/lib/server/api-dispatch";
import { answerConnect, createApiEdge } from "@/lib/server/api-edge";

type Handler = (
  req: Request,
  args: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;
type RouteModule = Partial<Record<string, Handler>>;

interface Route {
  pattern: RegExp;
  names: string[];
  catchAll: boolean;
  rank: number;
  load: () => Promise<RouteModule>;
}

// Every App Router route file under app/api, matched the way Next matches them:
// static segments before [dynamic] ones, [...catchAll] last.
const modules = import.meta.glob<RouteModule>("/app/api/**/route.ts");
const routes: Route[] = Object.entries(modules)
  .map(([file, load]) => {
    const segments = file
      .replace(/^\/app/, "")
      .replace(/\/route\.ts$/, "")
      .split("/")
      .filter(Boolean);
    const names: string[] = [];
    let catchAll = false;
    let rank = 0;
    const source = segments
      .map((seg) => {
        const rest = seg.match(/^\[\.\.\.(\w+)\]$/);
        if (rest) {
          names.push(rest[1]!);
          catchAll = true;
          // The deeper catch-all first: /api/v1/[...path] before /api/[...path].
          rank += 100 - segments.length;
          return "(.+)";
        }
        const dyn = seg.match(/^\[(\w+)\]$/);
        if (dyn) {
          names.push(dyn[1]!);
          rank += 1;
          return "([^/]+)";
        }
        return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      })
      .join("/");
    return { pattern: new RegExp(`^/${source}/?$`), names, catchAll, rank, load };
  })
  .sort((a, b) => a.rank - b.rank);

export interface TestApi {
  url: string;
  close(): Promise<void>;
}

/**
 * Which mount serves /api/v1: "next" (this file's router, matching the route files as Next does) or "lean"
 * (the production server's own dispatcher, lib/server/api-dispatch.ts over api-routes.ts). A suite that
 * imports other test files after `useMount("lean")` runs their tests against the lean mount.
 */
let mount: "next" | "lean" = "next";
export function selectMount(which: "next" | "lean"): void {
  mount = which;
}
const lean = createApiDispatch(API_ROUTES);
const edge = createApiEdge(API_EDGE_ROUTES);

/**
 * A real HTTP server on 127.0.0.1 that runs the app's route handlers against `handle`.
 * The Playwright suite covers Next's own pipeline on the production build; this keeps each
 * test file on its own cloned database.
 */
export async function startTestApi(handle: DbHandle): Promise<TestApi> {
  setDbHandle(handle);
  const useLean = mount === "lean";
  const server = http.createServer(async (req, res) => {
    try {
      // As server.ts: the forwarding headers are the server's own (here: the socket's address), and the edge
      // answers malformed escapes and methods outside GET…OPTIONS ahead of both mounts.
      req.headers["x-forwarded-for"] ??= req.socket.remoteAddress ?? "";
      if (!req.rawHeaders.some((h) => h.toLowerCase() === "x-forwarded-for"))
        req.rawHeaders.push("X-Forwarded-For", req.socket.remoteAddress ?? "");
      if (await edge.handle(req, res)) return;
      if (useLean && (await lean(req, res))) return;
      const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
      const route = routes.find((r) => r.pattern.test(url.pathname));
      if (!route) {
        res.writeHead(404).end();
        return;
      }
      const match = url.pathname.match(route.pattern)!;
      const params: Record<string, string | string[]> = {};
      route.names.forEach((name, i) => {
        const value = decodeURIComponent(match[i + 1]!);
        params[name] = route.catchAll && i === route.names.length - 1 ? value.split("/") : value;
      });
      const mod = await route.load();
      // Next answers HEAD with the GET handler when a route exports no HEAD.
      const handler = mod[req.method ?? "GET"] ?? (req.method === "HEAD" ? mod.GET : undefined);
      if (!handler) {
        res.writeHead(405).end();
        return;
      }
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) {
        if (Array.isArray(v)) for (const item of v) headers.append(k, item);
        else if (v !== undefined) headers.set(k, v);
      }
      if (!headers.has("x-forwarded-for")) headers.set("x-forwarded-for", req.socket.remoteAddress ?? "");
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(url, {
        method: req.method,
        headers,
        body: hasBody ? (http.IncomingMessage.prototype[Symbol.asyncIterator].call(req) as never) : undefined,
        // @ts-expect-error Node's fetch needs this for streamed bodies
        duplex: "half",
      });
      // As Next does: a route without dynamic segments gets no params object at all.
      const routeParams = route.names.length > 0 ? params : (undefined as unknown as typeof params);
      const response = await handler(request, { params: Promise.resolve(routeParams) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (err) {
      res.writeHead(599, { "content-type": "text/plain" }).end(`test server: ${String(err)}`);
    }
  });
  answerConnect(
    server,
    (req, res) => {
      server.emit("request", req, res);
    },
    http.ServerResponse,
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
