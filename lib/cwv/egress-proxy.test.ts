import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Resolver } from "@/lib/fetch/guarded-fetch";
import { type EgressProxy, startEgressProxy } from "./egress-proxy";

let origin: http.Server;
let originPort: number;

beforeAll(async () => {
  origin = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/plain", "x-seen-host": req.headers.host ?? "" });
    res.end(`hello ${req.url}`);
  });
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  originPort = (origin.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => origin.close(() => resolve())));

/** A plain-HTTP request through the proxy, as a browser sends it (absolute URL in the request line). */
function viaProxy(
  proxy: EgressProxy,
  target: string,
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: Number(port), method: "GET", path: target },
      (res) => {
        let body = "";
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** A CONNECT tunnel through the proxy; returns the proxy's status line. */
function connectVia(proxy: EgressProxy, authority: string): Promise<string> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1", () => {
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
    });
    socket.once("data", (chunk) => {
      resolve(chunk.toString().split("\r\n")[0] ?? "");
      socket.destroy();
    });
    socket.on("error", reject);
  });
}

const names: Record<string, string> = { "shop.test": "127.0.0.1", "intranet.test": "10.1.2.3" };
const resolver: Resolver = async (hostname) => {
  const address = names[hostname];
  if (!address) throw new Error(`no such host ${hostname}`);
  return [{ address, family: 4 }];
};

describe("egress proxy under the loopback policy", () => {
  let proxy: EgressProxy;
  beforeAll(async () => {
    proxy = await startEgressProxy({ policy: "loopback", resolver });
  });
  afterAll(() => proxy.close());

  test("forwards a loopback request and keeps the Host header", async () => {
    const res = await viaProxy(proxy, `http://127.0.0.1:${originPort}/page?x=1`);
    expect(res.status).toBe(200);
    expect(res.body).toBe("hello /page?x=1");
    expect(res.headers["x-seen-host"]).toBe(`127.0.0.1:${originPort}`);
  });

  test("connects a name to the address it checked", async () => {
    const res = await viaProxy(proxy, `http://shop.test:${originPort}/a`);
    expect(res.status).toBe(200);
    expect(res.headers["x-seen-host"]).toBe(`shop.test:${originPort}`);
  });

  const refused = [
    {
      name: "metadata address",
      target: "http://169.254.169.254/latest/meta-data/",
      reason: "cloud metadata address",
    },
    { name: "private address", target: "http://10.0.0.1/x.png", reason: "private address" },
    { name: "metadata host name", target: "http://metadata.google.internal/", reason: "cloud metadata host" },
    { name: "name resolving to a private address", target: "http://intranet.test/", reason: "10.1.2.3" },
    { name: "link-local address", target: "http://169.254.1.1/", reason: "linkLocal address" },
  ];
  for (const c of refused) {
    test(`refuses a ${c.name} and records it`, async () => {
      const res = await viaProxy(proxy, c.target);
      expect(res.status).toBe(403);
      const refusal = proxy.refusals.find((r) => r.target === c.target);
      expect(refusal?.reason).toContain(c.reason);
    });
  }

  test("opens a CONNECT tunnel to loopback and refuses one to the metadata address", async () => {
    expect(await connectVia(proxy, `127.0.0.1:${originPort}`)).toBe("HTTP/1.1 200 Connection Established");
    expect(await connectVia(proxy, "169.254.169.254:443")).toBe("HTTP/1.1 403 Forbidden");
    expect(await connectVia(proxy, "[::ffff:10.0.0.1]:443")).toBe("HTTP/1.1 403 Forbidden");
    expect(proxy.refusals.map((r) => r.target)).toContain("169.254.169.254:443");
  });
});

describe("egress proxy under the default policy", () => {
  test("refuses loopback too", async () => {
    const proxy = await startEgressProxy({ policy: false, resolver });
    try {
      const res = await viaProxy(proxy, `http://127.0.0.1:${originPort}/`);
      expect(res.status).toBe(403);
      expect(await connectVia(proxy, `127.0.0.1:${originPort}`)).toBe("HTTP/1.1 403 Forbidden");
      expect(proxy.refusals[0]?.reason).toBe("loopback address");
      expect(proxy.allowedCount()).toBe(0);
    } finally {
      await proxy.close();
    }
  });
});
