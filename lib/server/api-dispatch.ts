// The lean mount of /api/v1: the custom server (server.ts) hands these requests straight to the exported
// handler functions of the route files, without Next's page pipeline. The route files stay as they are, so
// a serverless deployment still serves them through Next; this is one set of handlers with two mounts.
// Whatever the table does not match, or matches oddly (a method no file exports, a malformed escape), goes
// on to Next, which answers it as it always has.
import type http from "node:http";
import type { TLSSocket } from "node:tls";
import { jsonBodyText } from "@/lib/api/envelope";
import { HSTS_VALUE, STATIC_SECURITY_HEADERS } from "@/lib/security/headers";

type RouteHandler = (
  req: Request,
  args: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;
export type RouteModule = Partial<Record<string, unknown>>;

/** One route file: its App Router path (`/api/v1/jobs/[jobId]`) and its module's exports. */
export interface RouteEntry {
  path: string;
  module: RouteModule;
}

interface CompiledRoute {
  path: string;
  pattern: RegExp;
  names: string[];
  catchAll: boolean;
  kinds: SegmentKind[];
  module: RouteModule;
}

type SegmentKind = 0 | 1 | 2; // static, [dynamic], [...catchAll]

/**
 * The table as Next matches it: segment by segment, a static segment before a [dynamic] one before a
 * [...catchAll]; a trailing slash is served like the path without it (next.config.ts skips Next's
 * trailing-slash redirect).
 */
export function compileRoutes(entries: RouteEntry[]): CompiledRoute[] {
  return entries
    .map(({ path, module }) => {
      const names: string[] = [];
      const kinds: SegmentKind[] = [];
      let catchAll = false;
      const source = path
        .split("/")
        .filter(Boolean)
        .map((seg) => {
          const rest = seg.match(/^\[\.\.\.(\w+)\]$/);
          if (rest) {
            names.push(rest[1]!);
            kinds.push(2);
            catchAll = true;
            return "(.+?)";
          }
          const dyn = seg.match(/^\[(\w+)\]$/);
          if (dyn) {
            names.push(dyn[1]!);
            kinds.push(1);
            return "([^/]+)";
          }
          kinds.push(0);
          return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        })
        .join("/");
      return { path, pattern: new RegExp(`^/${source}/?$`), names, catchAll, kinds, module };
    })
    .sort((a, b) => {
      for (let i = 0; i < Math.min(a.kinds.length, b.kinds.length); i++) {
        if (a.kinds[i] !== b.kinds[i]) return a.kinds[i]! - b.kinds[i]!;
      }
      return a.kinds.length - b.kinds.length;
    });
}

export interface Match {
  handler: RouteHandler;
  /** undefined for a static route: Next hands those no params object. */
  params: Record<string, string | string[]> | undefined;
  route: string;
}

/** The handler and params for a method and path, or null (Next answers it). */
export function matchRoute(routes: CompiledRoute[], method: string, pathname: string): Match | null {
  for (const route of routes) {
    const m = route.pattern.exec(pathname);
    if (!m) continue;
    const exported = route.module[method] ?? (method === "HEAD" ? route.module.GET : undefined);
    if (typeof exported !== "function") return null;
    let params: Record<string, string | string[]> | undefined;
    if (route.names.length > 0) {
      params = {};
      for (let i = 0; i < route.names.length; i++) {
        const raw = m[i + 1]!;
        try {
          params[route.names[i]!] =
            route.catchAll && i === route.names.length - 1
              ? raw.split("/").map(decodeURIComponent)
              : decodeURIComponent(raw);
        } catch {
          return null;
        }
      }
    }
    return { handler: exported as RouteHandler, params, route: route.path };
  }
  return null;
}

/** Bodies declared up to this size are read whole (one Buffer); longer or chunked ones are streamed. */
const BUFFERED_BODY_BYTES = 1024 * 1024;

function readWhole(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** A Web Request from the node request: headers copied once, the body read whole when small. */
async function toWebRequest(req: http.IncomingMessage, signal?: AbortSignal): Promise<Request> {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const proto = (req.socket as TLSSocket).encrypted ? "https" : "http";
  let url: string;
  try {
    url = new URL(req.url ?? "/", `${proto}://${req.headers.host || "localhost"}`).href;
  } catch {
    url = new URL(req.url ?? "/", `${proto}://localhost`).href;
  }
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD") return new Request(url, { method, headers, signal });
  const declared = req.headers["content-length"];
  if (
    declared !== undefined &&
    Number(declared) <= BUFFERED_BODY_BYTES &&
    !req.headers["transfer-encoding"]
  ) {
    const body = await readWhole(req);
    return new Request(url, {
      method,
      headers,
      body: body.length ? (body as unknown as BodyInit) : undefined,
      signal,
    });
  }
  return new Request(url, {
    method,
    headers,
    body: req as unknown as ReadableStream,
    signal,
    // @ts-expect-error Node's fetch needs this for a streamed request body
    duplex: "half",
  });
}

/** The headers next.config.ts adds to every answer, so both mounts answer alike. */
function configHeaders(): string[] {
  const out = STATIC_SECURITY_HEADERS.flatMap((h) => [h.key, h.value]);
  if (process.env.NODE_ENV === "production") out.push("Strict-Transport-Security", HSTS_VALUE);
  return out;
}

/**
 * Writes a Web Response to the node response: a JSON answer of lib/api's envelope in one write from its text;
 * any other body streamed chunk by chunk (MCP progress events arrive as they are sent).
 */
export async function sendWebResponse(
  response: Response,
  res: http.ServerResponse,
  opts: { head?: boolean } = {},
): Promise<void> {
  const head: string[] = [];
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") head.push(key, value);
  });
  // Next's config headers apply where the handler set none of its own.
  const config = configHeaders();
  for (let i = 0; i < config.length; i += 2) {
    if (!response.headers.has(config[i]!)) head.push(config[i]!, config[i + 1]!);
  }
  for (const cookie of response.headers.getSetCookie()) head.push("set-cookie", cookie);
  const text = jsonBodyText(response);
  if (text !== undefined && !response.bodyUsed) {
    if (!opts.head) head.push("content-length", String(Buffer.byteLength(text)));
    res.writeHead(response.status, head);
    res.end(opts.head ? undefined : text);
    return;
  }
  res.writeHead(response.status, head);
  if (!response.body || opts.head) {
    void response.body?.cancel().catch(() => {});
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const onClose = () => void reader.cancel().catch(() => {});
  res.once("close", onClose);
  try {
    // A body of one chunk goes out with the end, as one write.
    let chunk = await reader.read();
    if (chunk.done) return void res.end();
    const next = await reader.read();
    if (next.done) return void res.end(chunk.value);
    res.flushHeaders();
    res.write(chunk.value);
    chunk = next;
    while (!chunk.done) {
      if (!res.write(chunk.value)) await new Promise((r) => res.once("drain", r));
      chunk = await reader.read();
    }
    res.end();
  } finally {
    res.off("close", onClose);
  }
}

/**
 * A request listener for /api/v1 over the route table: handled → true; not matched → false (hand it to Next).
 */
export function createApiDispatch(entries: RouteEntry[], prefix = "/api/v1") {
  const routes = compileRoutes(entries);
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> => {
    const rawUrl = req.url ?? "/";
    if (!rawUrl.startsWith(prefix)) return false;
    const q = rawUrl.indexOf("?");
    const pathname = q === -1 ? rawUrl : rawUrl.slice(0, q);
    if (pathname !== prefix && !pathname.startsWith(`${prefix}/`)) return false;
    const method = req.method ?? "GET";
    const match = matchRoute(routes, method, pathname);
    if (!match) return false;
    if (method === "GET" || method === "HEAD") {
      // Reads answer at once; only requests that can wait (MCP's wait_for_job) need to hear the client leave.
      const request = await toWebRequest(req);
      const response = await match.handler(request, { params: Promise.resolve(match.params as never) });
      await sendWebResponse(response, res, { head: method === "HEAD" });
      return true;
    }
    const controller = new AbortController();
    const abort = () => {
      if (!res.writableFinished) controller.abort();
    };
    res.once("close", abort);
    try {
      const request = await toWebRequest(req, controller.signal);
      const response = await match.handler(request, { params: Promise.resolve(match.params as never) });
      await sendWebResponse(response, res, { head: method === "HEAD" });
    } finally {
      res.off("close", abort);
    }
    return true;
  };
}
