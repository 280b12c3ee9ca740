import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { bucketKey, hitRateLimit } from "@/lib/api/rate-limit";
import type { DbHandle } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { JobRunner } from "@/lib/jobs/runner";
import type { OpenApiDocument } from "@/lib/openapi/document";
import type { PostmanCollection } from "@/lib/openapi/postman";
import { parseTrustProxy, resolveClient, TrustProxyError } from "@/lib/server/forwarded";
import { createAppServer } from "@/lib/server/http-server";
import type { TestAccount } from "@/test/accounts";
import type { TestApi } from "@/test/api-server";
import { apiTest } from "@/test/support/fixtures";
import { testTools } from "../jobs-helpers";

const test = apiTest;
let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;
test.beforeAll(({ handle: _handle, api: _api, acct: _acct }) => {
  handle = _handle;
  api = _api;
  acct = _acct;
});

/** The production server's header rewriting in front of a handler that echoes what it was given. */
async function echoServer(trustProxy: string | undefined) {
  const server = createAppServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ headers: req.headers, raw: req.rawHeaders }));
  }, parseTrustProxy(trustProxy));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    get: async (headers: Record<string, string>) => {
      const res = await fetch(`http://127.0.0.1:${port}/`, { headers });
      return (await res.json()) as { headers: Record<string, string>; raw: string[] };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const SPOOF = {
  "x-forwarded-for": "198.51.100.7",
  "x-forwarded-proto": "https",
  "x-forwarded-host": "evil.example",
  "x-real-ip": "198.51.100.8",
  forwarded: "for=198.51.100.9;proto=https",
};

describe("client address and scheme", () => {
  test("without TRUST_PROXY a client's forwarding headers are dropped: the socket decides", async () => {
    const server = await echoServer(undefined);
    try {
      const { headers, raw } = await server.get(SPOOF);
      expect(headers["x-forwarded-for"]).toBe("127.0.0.1");
      expect(headers["x-forwarded-proto"]).toBe("http");
      expect(headers["x-forwarded-host"]).toBeUndefined();
      expect(headers["x-real-ip"]).toBeUndefined();
      expect(headers.forwarded).toBeUndefined();
      expect(raw.join("\n")).not.toContain("198.51.100");
    } finally {
      await server.close();
    }
  });

  test("a trusted proxy (CIDR or hop count) is believed for the address and the scheme", async () => {
    for (const trust of ["127.0.0.0/8", "1"]) {
      const server = await echoServer(trust);
      try {
        const { headers } = await server.get({
          "x-forwarded-for": "198.51.100.7",
          "x-forwarded-proto": "https",
        });
        expect(headers["x-forwarded-for"]).toBe("198.51.100.7");
        expect(headers["x-forwarded-proto"]).toBe("https");
      } finally {
        await server.close();
      }
    }
  });

  test("only trusted hops are walked: an address the client prepended is not the client", () => {
    const trust = parseTrustProxy("10.0.0.0/8, 192.0.2.1");
    // client 203.0.113.5 → proxy 10.0.0.2 → us (peer 192.0.2.1); the client claimed 198.51.100.1 first.
    const chain = { "x-forwarded-for": "198.51.100.1, 203.0.113.5, 10.0.0.2" };
    expect(resolveClient({ remoteAddress: "::ffff:192.0.2.1" }, chain, trust).ip).toBe("203.0.113.5");
    // An untrusted peer: its headers mean nothing.
    expect(resolveClient({ remoteAddress: "203.0.113.99" }, chain, trust)).toEqual({
      ip: "203.0.113.99",
      proto: "http",
    });
    // Two hops trusted by count: the third entry from the socket.
    expect(resolveClient({ remoteAddress: "10.0.0.9" }, chain, parseTrustProxy("2")).ip).toBe("203.0.113.5");
    // TLS on our own socket is https whatever the headers say.
    expect(
      resolveClient({ remoteAddress: "203.0.113.99", encrypted: true }, {}, parseTrustProxy("")).proto,
    ).toBe("https");
    expect(() => parseTrustProxy("everyone")).toThrow(TrustProxyError);
    // A socket that lost its address: unknown, never an exception (trusted CIDRs compare only addresses).
    expect(resolveClient({}, chain, trust).ip).toBe("unknown");
  });
});

describe("rate-limit buckets", () => {
  test("a bucket's stored key is bounded whatever the client put in it", async () => {
    const huge = `ip:${"x".repeat(20_000)}`;
    const first = await hitRateLimit(handle.db, huge, 5);
    const second = await hitRateLimit(handle.db, huge, 5);
    expect([first.remaining, second.remaining]).toEqual([4, 3]);
    const rows = rowsOf<{ len: number }>(
      await handle.db.execute(sql`select max(length(bucket))::int as len from rate_limit_windows`),
    );
    expect(rows[0]!.len).toBeLessThanOrEqual(64);
  });

  test("concurrent hits on one bucket share statements yet each sees its own count", async () => {
    const states = await Promise.all(
      Array.from({ length: 20 }, () => hitRateLimit(handle.db, "ip:203.0.113.210", 5)),
    );
    // As if one after another: remaining 4, 3, 2, 1, 0, then 0 and refused; exactly one opened the window.
    expect(states.map((s) => s.remaining)).toEqual([4, 3, 2, 1, ...Array(16).fill(0)]);
    expect(states.filter((s) => s.allowed)).toHaveLength(5);
    expect(states.filter((s) => s.firstInWindow)).toHaveLength(1);
    const rows = rowsOf<{ count: number }>(
      await handle.db.execute(
        sql`select count from rate_limit_windows where bucket = ${bucketKey("ip:203.0.113.210")}`,
      ),
    );
    expect(Number(rows[0]!.count)).toBe(20);
  });

  test("the runner's periodic pass purges windows that ended long ago", async () => {
    await hitRateLimit(handle.db, "ip:203.0.113.200", 5);
    await handle.db.execute(sql`update rate_limit_windows set window_start = now() - interval '2 hours'`);
    await hitRateLimit(handle.db, "ip:203.0.113.201", 5);
    const runner = new JobRunner(
      handle.db,
      { concurrency: 1, leaseSeconds: 5, queueTimeoutSeconds: 600, pollMs: 50 },
      testTools,
    );
    await runner.pass();
    const rows = rowsOf<{ n: number }>(
      await handle.db.execute(sql`select count(*)::int as n from rate_limit_windows`),
    );
    expect(rows[0]!.n).toBe(1);
  });
});

describe("documents name the configured public address", () => {
  /** node:http, because fetch() will not send a Host of our choosing. */
  function getWithHost(path: string, headers: Record<string, string>) {
    return new Promise<unknown>((resolve, reject) => {
      const req = http.request(`${api.url}${path}`, { headers }, (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve(JSON.parse(text)));
      });
      req.on("error", reject);
      req.end();
    });
  }

  test("openapi.json and postman.json ignore Host and X-Forwarded-Host", async () => {
    const previous = process.env.PUBLIC_BASE_URL;
    process.env.PUBLIC_BASE_URL = "https://api.findable.example/";
    try {
      const spoof = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" };
      const doc = (await getWithHost("/api/v1/openapi.json", spoof)) as OpenApiDocument;
      expect((doc.servers as { url: string }[])[0]!.url).toBe("https://api.findable.example/api/v1");
      const collection = (await getWithHost("/api/v1/postman.json", {
        ...spoof,
        ...acct.headers,
      })) as PostmanCollection;
      const baseUrl = collection.variable.find((v) => v.key === "baseUrl")?.value;
      expect(baseUrl).toBe("https://api.findable.example/api/v1");
    } finally {
      if (previous === undefined) delete process.env.PUBLIC_BASE_URL;
      else process.env.PUBLIC_BASE_URL = previous;
    }
  });

  test("without PUBLIC_BASE_URL the listening address is used", async () => {
    const { apiBaseUrl } = await import("@/lib/openapi/serve");
    expect(apiBaseUrl({ PORT: "4123", HOST: "127.0.0.1" })).toBe("http://127.0.0.1:4123/api/v1");
    expect(apiBaseUrl({})).toBe("http://localhost:3000/api/v1");
  });
});
