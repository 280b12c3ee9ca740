import type { AddressInfo } from "node:net";
import { API_EDGE_ROUTES, API_ROUTES } from "@/api-routes";
import { createApiDispatch } from "@/lib/server/api-dispatch";
import { createApiEdge } from "@/lib/server/api-edge";
import { parseTrustProxy } from "@/lib/server/forwarded";
import { createAppServer } from "@/lib/server/http-server";

export interface EdgeServer {
  url: string;
  /** Requests that got past the edge and the lean mount (Next would have answered them): method and path. */
  reachedNext: string[];
  close(): Promise<void>;
}

/**
 * server.ts's composition without Next: createAppServer (the socket's own forwarding headers; loopback
 * trusted as a proxy unless `trustProxy` says otherwise, so a test can give each request its own client
 * address), on 127.0.0.1 unless `host` names another local address, the /api edge, the lean /api/v1
 * mount, then a stand-in for Next that answers 418 and records the request. Uses the database set with
 * setDbHandle (startTestApi does that).
 */
export async function startEdgeServer(
  opts: { host?: string; trustProxy?: string } = {},
): Promise<EdgeServer> {
  const edge = createApiEdge(API_EDGE_ROUTES);
  const lean = createApiDispatch(API_ROUTES);
  const reachedNext: string[] = [];
  const server = createAppServer(
    async (req, res) => {
      if (await edge.handle(req, res)) return;
      if (await lean(req, res)) return;
      reachedNext.push(`${req.method} ${req.url}`);
      res.writeHead(418).end();
    },
    parseTrustProxy(opts.trustProxy ?? "127.0.0.1"),
  );
  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((r) => server.listen(0, host, r));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    reachedNext,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
