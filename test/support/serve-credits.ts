// A second server process for the cross-process rate-limit test: serves GET /api/v1/credits
// from the real route module against DATABASE_URL, and prints its port.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { GET } from "@/app/api/v1/credits/route";

const server = http.createServer(async (req, res) => {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const response = await GET(new Request(`http://127.0.0.1${req.url}`, { headers }), {
    params: Promise.resolve({}),
  });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
});
server.listen(0, "127.0.0.1", () => console.log(`PORT ${(server.address() as AddressInfo).port}`));
