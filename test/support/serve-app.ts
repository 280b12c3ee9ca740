// A server process for the crash and graceful-stop tests: the real route handlers and the in-process job
// runner, plus the test-only `test-sleep` tool, on DATABASE_URL or PGLITE_DATA_DIR, stopping on SIGTERM as
// server.ts does (exitGracefullyOnSignals + stopServerRuntime). Prints its port.
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as credits from "@/app/api/v1/credits/route";
import * as job from "@/app/api/v1/jobs/[jobId]/route";
import { toolRoute } from "@/lib/api/tool-route";
import { exitGracefullyOnSignals } from "@/lib/server/graceful-stop";
import { startServerRuntime, stopServerRuntime } from "@/lib/server-runtime";
import { sleepTool, testTools } from "../jobs-helpers";

type Handler = (req: Request, args: { params: Promise<Record<string, string>> }) => Promise<Response>;
const sleep = toolRoute(sleepTool);

function route(method: string, path: string): { handler: Handler; params: Record<string, string> } | null {
  const m = path.match(/^\/api\/v1\/jobs\/([^/]+)$/);
  if (m) return { handler: (job as Record<string, Handler>)[method]!, params: { jobId: m[1]! } };
  if (path === "/api/v1/credits")
    return { handler: (credits as Record<string, Handler>)[method]!, params: {} };
  if (path === "/api/v1/test-sleep")
    return { handler: (sleep as Record<string, Handler>)[method]!, params: {} };
  return null;
}

await startServerRuntime(testTools);
const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const found = route(req.method ?? "GET", url.pathname);
  if (!found) return void res.writeHead(404).end();
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const body = chunks.length ? Buffer.concat(chunks) : undefined;
  const response = await found.handler(new Request(url, { method: req.method, headers, body }), {
    params: Promise.resolve(found.params),
  });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
});
server.listen(0, "127.0.0.1", () => console.log(`PORT ${(server.address() as AddressInfo).port}`));
exitGracefullyOnSignals(async () => {
  server.close();
  server.closeIdleConnections();
  await stopServerRuntime();
});
