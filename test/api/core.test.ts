import http from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";
import { rotateKeyPair } from "@/lib/keys/keys";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createTestAccount, setKeyRateLimit, type TestAccount } from "../accounts";
import { createTestDb } from "../db";

// lean-mount.test.ts runs this file again inside a describe block, where Vitest cannot define file-scoped
// fixtures: the set-up is made in this file's own hooks instead.
let handle: DbHandle;
let api: TestApi;
let alice: TestAccount;
beforeAll(async () => {
  handle = await createTestDb();
  api = await startTestApi(handle);
  alice = await createTestAccount(handle.db);
});
afterAll(async () => {
  await api?.close();
  await handle?.close();
});
let bob: TestAccount;

beforeAll(async () => {
  bob = await createTestAccount(handle.db);
});

async function call(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const res = await fetch(`${api.url}${path}`, init);
  const body = (await res.json()) as {
    success: boolean;
    data?: Record<string, unknown>;
    error?: { code: string; message: string; details: Record<string, unknown> };
    requestId: string;
  };
  return { res, body };
}

describe("authentication", () => {
  const cases: { name: string; headers: () => Record<string, string>; status: number; code?: string }[] = [
    { name: "no headers", headers: () => ({}), status: 401, code: "UNAUTHORIZED" },
    {
      name: "key without secret",
      headers: () => ({ "x-api-key": alice.key }),
      status: 401,
      code: "UNAUTHORIZED",
    },
    {
      name: "secret without key",
      headers: () => ({ "x-api-secret": alice.secret }),
      status: 401,
      code: "UNAUTHORIZED",
    },
    {
      name: "wrong secret",
      headers: () => ({ "x-api-key": alice.key, "x-api-secret": bob.secret }),
      status: 401,
      code: "UNAUTHORIZED",
    },
    {
      name: "unknown key id",
      headers: () => ({ "x-api-key": "sk_live_AAAAAAAAAAAAAAAAAAAAAAAA", "x-api-secret": alice.secret }),
      status: 401,
      code: "UNAUTHORIZED",
    },
    {
      name: "malformed key id",
      headers: () => ({ "x-api-key": "' or 1=1 --", "x-api-secret": alice.secret }),
      status: 401,
      code: "UNAUTHORIZED",
    },
    { name: "valid pair", headers: () => alice.headers, status: 200 },
    {
      name: "bearer key:secret",
      headers: () => ({ authorization: `Bearer ${alice.key}:${alice.secret}` }),
      status: 200,
    },
    {
      name: "bearer with key only",
      headers: () => ({ authorization: `Bearer ${alice.key}` }),
      status: 401,
      code: "UNAUTHORIZED",
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const { res, body } = await call("/api/v1/credits", { headers: c.headers() });
      expect(res.status).toBe(c.status);
      expect(body.success).toBe(c.status === 200);
      if (c.code) expect(body.error?.code).toBe(c.code);
    });
  }

  test("a rotated pair is refused at once and the new pair works", async () => {
    const carol = await createTestAccount(handle.db);
    expect((await call("/api/v1/credits", { headers: carol.headers })).res.status).toBe(200);
    const fresh = await rotateKeyPair(handle.db, carol.accountId);
    const old = await call("/api/v1/credits", { headers: carol.headers });
    expect(old.res.status).toBe(401);
    expect(old.body.error?.code).toBe("UNAUTHORIZED");
    const next = await call("/api/v1/credits", {
      headers: { "x-api-key": fresh.keyId, "x-api-secret": fresh.secret },
    });
    expect(next.res.status).toBe(200);
  });
});

describe("envelope", () => {
  test("success: success, data, requestId in the body and X-Request-Id header", async () => {
    const { res, body } = await call("/api/v1/credits", { headers: alice.headers });
    expect(Object.keys(body).sort()).toEqual(["data", "requestId", "success"]);
    expect(body.requestId).toMatch(/^req_/);
    expect(res.headers.get("x-request-id")).toBe(body.requestId);
    expect(res.headers.get("content-type")).toContain("application/json");
  });

  test("error: code, message and details, and a requestId", async () => {
    const { res, body } = await call("/api/v1/credits");
    expect(Object.keys(body).sort()).toEqual(["error", "requestId", "success"]);
    expect(Object.keys(body.error!).sort()).toEqual(["code", "details", "message"]);
    expect(res.headers.get("x-request-id")).toBe(body.requestId);
  });

  test("every request gets its own id", async () => {
    const a = await call("/api/v1/credits", { headers: alice.headers });
    const b = await call("/api/v1/credits", { headers: alice.headers });
    expect(a.body.requestId).not.toBe(b.body.requestId);
  });

  test("unknown /api/v1 paths are a JSON 404", async () => {
    const { res, body } = await call("/api/v1/no-such-thing/here", { headers: alice.headers });
    expect(res.status).toBe(404);
    expect(body.error?.code).toBe("NOT_FOUND");
  });

  test("a wrong method is a JSON 405 with Allow", async () => {
    const { res, body } = await call("/api/v1/credits", { method: "DELETE", headers: alice.headers });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    expect(body.error?.code).toBe("METHOD_NOT_ALLOWED");
  });
});

describe("GET /credits", () => {
  test("balance, totalUsed and recent transactions, newest first, at most 20", async () => {
    const dave = await createTestAccount(handle.db);
    const { grantCredits } = await import("@/lib/credits/credits");
    for (let i = 1; i <= 25; i++)
      await grantCredits(handle.db, dave.accountId, i, { description: `grant ${i}` });
    const { body } = await call("/api/v1/credits", { headers: dave.headers });
    const data = body.data as {
      balance: number;
      totalUsed: number;
      recentTransactions: { description: string; amount: number; type: string }[];
    };
    expect(data.balance).toBe(100 + (25 * 26) / 2);
    expect(data.totalUsed).toBe(0);
    expect(data.recentTransactions).toHaveLength(20);
    expect(data.recentTransactions[0]).toMatchObject({ type: "grant", amount: 25, description: "grant 25" });
    expect(data.recentTransactions[19]!.description).toBe("grant 6");
  });

  test("a new account starts with the 100-credit grant", async () => {
    const { body } = await call("/api/v1/credits", { headers: bob.headers });
    expect(body.data).toMatchObject({ balance: 100, totalUsed: 0 });
    expect((body.data as { recentTransactions: unknown[] }).recentTransactions).toEqual([
      expect.objectContaining({ type: "grant", amount: 100 }),
    ]);
  });
});

describe("GET /jobs/{jobId}", () => {
  test("own job is returned; another account's, unknown and malformed ids are NOT_FOUND", async () => {
    const [job] = await handle.db
      .insert(jobs)
      .values({
        accountId: alice.accountId,
        tool: "audits",
        input: { url: "https://example.com" },
        creditsCharged: 0,
      })
      .returning();
    const own = await call(`/api/v1/jobs/${job!.id}`, { headers: alice.headers });
    expect(own.res.status).toBe(200);
    expect(own.body.data).toMatchObject({
      jobId: job!.id,
      tool: "audits",
      status: "pending",
      creditsRefunded: false,
    });
    expect(own.body.data).not.toHaveProperty("result");
    for (const [headers, id] of [
      [bob.headers, job!.id],
      [alice.headers, "5f0c1e5e-3f7e-4a6e-9a43-0f6f1f1f1f1f"],
      [alice.headers, "not-a-uuid"],
      [alice.headers, "' or 1=1"],
    ] as const) {
      const r = await call(`/api/v1/jobs/${encodeURIComponent(id)}`, { headers });
      expect(r.res.status).toBe(404);
      expect(r.body.error?.code).toBe("NOT_FOUND");
    }
  });
});

describe("rate limiting", () => {
  test("the 61st request within a minute is 429 with Retry-After and RateLimit-* headers", async () => {
    const erin = await createTestAccount(handle.db);
    await setKeyRateLimit(handle.db, erin.key, null);
    for (let i = 1; i <= 60; i++) {
      const r = await fetch(`${api.url}/api/v1/credits`, { headers: erin.headers });
      expect(r.status).toBe(200);
      expect(r.headers.get("ratelimit-limit")).toBe("60");
      expect(r.headers.get("ratelimit-remaining")).toBe(String(60 - i));
      expect(r.headers.get("ratelimit-policy")).toBe("60;w=60");
      await r.arrayBuffer();
    }
    const { res, body } = await call("/api/v1/credits", { headers: erin.headers });
    expect(res.status).toBe(429);
    expect(body.error?.code).toBe("RATE_LIMITED");
    expect(res.headers.get("ratelimit-remaining")).toBe("0");
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(Number(res.headers.get("ratelimit-reset"))).toBeLessThanOrEqual(60);
  });

  test("a per-key override replaces the default", async () => {
    const frank = await createTestAccount(handle.db, { rateLimitPerMinute: 3 });
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await call("/api/v1/credits", { headers: frank.headers })).res.status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  test("keys have separate windows", async () => {
    const g1 = await createTestAccount(handle.db, { rateLimitPerMinute: 1 });
    const g2 = await createTestAccount(handle.db, { rateLimitPerMinute: 1 });
    expect((await call("/api/v1/credits", { headers: g1.headers })).res.status).toBe(200);
    expect((await call("/api/v1/credits", { headers: g2.headers })).res.status).toBe(200);
    expect((await call("/api/v1/credits", { headers: g1.headers })).res.status).toBe(429);
  });

  test("requests without valid credentials are limited per client IP", async () => {
    const ip = "203.0.113.77";
    let last = 0;
    for (let i = 0; i < 61; i++) {
      const r = await fetch(`${api.url}/api/v1/credits`, {
        headers: { "x-forwarded-for": ip, "x-api-key": "nope" },
      });
      last = r.status;
      if (i < 60) expect(r.status).toBe(401);
      await r.arrayBuffer();
    }
    expect(last).toBe(429);
    // Another address is unaffected, and valid credentials use the key's own window.
    expect(
      (await call("/api/v1/credits", { headers: { "x-forwarded-for": "203.0.113.78" } })).res.status,
    ).toBe(401);
    expect(
      (await call("/api/v1/credits", { headers: { ...alice.headers, "x-forwarded-for": ip } })).res.status,
    ).toBe(200);
  });
});

/** fetch() may not set Host; node:http may. */
function requestWithHost(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: { error?: { code: string } } }>((resolve, reject) => {
    const req = http.request(`${api.url}${path}`, { headers }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("HTTPS in production", () => {
  // X-Forwarded-For here stands for the client address the production server resolves from the socket.
  test("plain HTTP from a public client is refused (whatever its Host); TLS (X-Forwarded-Proto) and loopback are served", async () => {
    process.env.REQUIRE_HTTPS = "true";
    const publicClient = { "x-forwarded-for": "203.0.113.9" };
    try {
      const plain = await requestWithHost("/api/v1/credits", {
        ...alice.headers,
        ...publicClient,
        host: "api.example.com",
      });
      expect(plain.status).toBe(403);
      expect(plain.body.error?.code).toBe("HTTPS_REQUIRED");
      const spoofed = await requestWithHost("/api/v1/credits", {
        ...alice.headers,
        ...publicClient,
        host: "localhost",
      });
      expect(spoofed.status).toBe(403);
      const tls = await requestWithHost("/api/v1/credits", {
        ...alice.headers,
        ...publicClient,
        host: "api.example.com",
        "x-forwarded-proto": "https",
      });
      expect(tls.status).toBe(200);
      const loopback = await call("/api/v1/credits", { headers: alice.headers });
      expect(loopback.res.status).toBe(200);
    } finally {
      delete process.env.REQUIRE_HTTPS;
    }
  });
});
