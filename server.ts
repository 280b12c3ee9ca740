// The production server (`npm start` and the e2e harness run it): Next's request handler behind a socket
// we own, so the client address and scheme come from the socket unless TRUST_PROXY names the proxies.
import next from "next";
import { parseTrustProxy, TrustProxyError } from "@/lib/server/forwarded";
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

const app = next({ dev: false, hostname, port, dir: process.cwd() });
const handle = app.getRequestHandler();
await app.prepare();

const server = createAppServer((req, res) => handle(req, res), trust);
server.listen(port, hostname, () => {
  const trusted =
    trust.kind === "none"
      ? "none (client address from the socket)"
      : trust.kind === "hops"
        ? `${trust.hops} hop(s)`
        : `${trust.ranges.length} range(s)`;
  const address = server.address();
  const actual = typeof address === "object" && address ? address.port : port;
  console.log(`Listening on http://${hostname}:${actual} (trusted proxies: ${trusted})`);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close();
    void app.close().finally(() => process.exit(0));
  });
}
