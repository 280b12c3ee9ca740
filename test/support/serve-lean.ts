// A server process for the cross-process key tests: /api/v1 through the lean mount (the same table and
// dispatcher server.ts uses) against DATABASE_URL,. Prints its port.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { API_ROUTES } from "@/api-routes";
import { createApiDispatch } from "@/lib/server/api-dispatch";

const dispatch = createApiDispatch(API_ROUTES);
const server = http.createServer(async (req, res) => {
  req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "";
  if (!(await dispatch(req, res))) res.writeHead(404).end();
});
server.listen(0, "127.0.0.1", () => console.log(`PORT ${(server.address() as AddressInfo).port}`));
