import { createReadStream, existsSync, statSync } from "node:fs";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export type FixtureHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface FixtureServer {
  /** http://127.0.0.1:PORT (no trailing slash) */
  url: string;
  port: number;
  /** Every request path seen, in order (tests assert crawling and robots behaviour with it). */
  requests: string[];
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml",
  ".json": "application/json",
  ".gz": "application/gzip",
  ".css": "text/css",
  ".js": "text/javascript",
  ".png": "image/png",
  ".md": "text/markdown; charset=utf-8",
};

/**
 * A local website on 127.0.0.1 for tests: static files from `root` (a directory's index.html
 * answers for the directory), with `routes` taking precedence for planted behaviour
 * (headers, redirects, slow answers, errors). Unknown paths are 404.
 */
export async function startFixtureServer(opts: {
  root?: string;
  routes?: Record<string, FixtureHandler>;
}): Promise<FixtureServer> {
  const requests: string[] = [];
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fixture");
    requests.push(url.pathname + url.search);
    try {
      const route = opts.routes?.[url.pathname];
      if (route) return await route(req, res);
      if (opts.root) {
        let file = path.join(opts.root, decodeURIComponent(url.pathname));
        if (!file.startsWith(path.resolve(opts.root))) return notFound(res);
        if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, "index.html");
        if (existsSync(file) && statSync(file).isFile()) {
          res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
          createReadStream(file).pipe(res);
          return;
        }
      }
      notFound(res);
    } catch (err) {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function notFound(res: ServerResponse) {
  res.writeHead(404, { "content-type": "text/html; charset=utf-8" });
  res.end("<!doctype html><title>Not found</title><h1>Not found</h1>");
}
