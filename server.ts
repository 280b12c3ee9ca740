// The production server (`npm start` and the e2e harness run it): Next's request handler behind a socket
// we own, so the client address and scheme come from the socket unless TRUST_PROXY names the proxies.
// /api/v1 goes straight to the route files' handlers (the lean mount, lib/server/api-dispatch.ts) unless
// API_MOUNT=next; everything else, and anything the table does not match, to Next's request handler.
import next from "next";
import { API_EDGE_ROUTES, API_ROUTES } from "@/api-routes";
import { createApiDispatch } from "@/lib/server/api-dispatch";
import { createApiEdge } from "@/lib/server/api-edge";
import { parseTrustProxy, TrustProxyError } from "@/lib/server/forwarded";
import { exitGracefullyOnSignals } from "@/lib/server/graceful-stop";
import { createAppServer } from "@/lib/server/http-server";

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "localhost";

let trust: ReturnType<typeof parseTrustProxy>;
try {
  trust = parseTrustProxy(process.env.TRUST_PROXY);
} catch (err) {
  console.error(err instanceof TrustProxyError ? err.message : err);
  process.exit(1);
}

// The database and the in-process job runner start here, from the same modules the lean mount uses (Next's
// instrumentation hook then finds them running: both live on globalThis).
const { startServerRuntime, stopServerRuntime } = await import("@/lib/server-runtime");
await startServerRuntime();

const app = next({ dev: false, hostname, port, dir: process.cwd() });
const handle = app.getRequestHandler();
await app.prepare();

const lean = process.env.API_MOUNT === "next" ? null : createApiDispatch(API_ROUTES);
// Ahead of both mounts: malformed escapes, methods outside GET…OPTIONS and CONNECT, in the envelope.
const edge = createApiEdge(API_EDGE_ROUTES);
const server = createAppServer(async (req, res) => {
  if (await edge.handle(req, res)) return;
  if (lean && (await lean(req, res))) return;
  await handle(req, res);
}, trust);
server.listen(port, hostname, () => {
  const trusted =
    trust.kind === "none"
      ? "none (client address from the socket)"
      : trust.kind === "hops"
        ? `${trust.hops} hop(s)`
        : `${trust.ranges.length} range(s)`;
  const address = server.address();
  const actual = typeof address === "object" && address ? address.port : port;
  const mount = lean ? "lean /api/v1" : "Next for everything";
  console.log(`Listening on http://${hostname}:${actual} (trusted proxies: ${trusted}; ${mount})`);
});
// SIGTERM/SIGINT: stop accepting connections, fail-and-refund the running jobs (INTERRUPTED), close Next, exit;
// all within SHUTDOWN_GRACE_MS.
exitGracefullyOnSignals(async () => {
  server.close();
  server.closeIdleConnections();
  await Promise.allSettled([stopServerRuntime(), app.close()]);
});
