// The contract's last gaps for programmatic clients: an idempotent replay answers the job's current status,
// `totalUsed` is net of refunds, a missing required field says "Required." on every edge, and the HTTPS rule's
// loopback exemption is the socket's address.
import os from "node:os";
import { eq } from "drizzle-orm";
import { describe, expect, vi } from "vitest";
import { isLoopbackAddress } from "@/lib/api/https";
import { findLedgerMismatches } from "@/lib/credits/credits";
import type { DbHandle } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";
import { completeJob, failJob } from "@/lib/jobs/transitions";
import { createLegacyToken } from "@/lib/keys/legacy-tokens";
import type { TestApi } from "@/test/api-server";
import { apiTest, type ClientFor, type NewAccount } from "@/test/support/fixtures";
import { balanceOf } from "../accounts";
import { startEdgeServer } from "../support/edge-server";
import { rawRequest } from "../support/raw-http";

const test = apiTest.withAccount({ credits: 1_000 });
let handle: DbHandle;
let api: TestApi;
let account: NewAccount;
let clientFor: ClientFor;
test.beforeAll(({ handle: _handle, api: _api, account: _account, clientFor: _clientFor }) => {
  handle = _handle;
  api = _api;
  account = _account;
  clientFor = _clientFor;
});
const url = "https://example.com/page";

/** Moves a pending job to completed as a runner would (claimed under a lease, then completed). */
async function complete(jobId: string, result: unknown) {
  await handle.db
    .update(jobs)
    .set({
      status: "processing",
      startedAt: new Date(),
      leaseOwner: "w_test",
      leaseExpiresAt: new Date(Date.now() + 60_000),
    })
    .where(eq(jobs.id, jobId));
  expect(await completeJob(handle.db, jobId, "w_test", result)).toBe(true);
}

describe("an idempotent replay answers the job's current status", () => {
  test("pending, then completed, then (another job) failed: the replay says so; nothing charged again", async () => {
    const acct = await account({ credits: 500 });
    const client = clientFor(acct);
    const h = { "idempotency-key": "replay-status-1" };
    const first = await client.post("/api/v1/audits", { url }, h);
    const created = (await first.json()).data;
    expect(first.status).toBe(202);
    expect(created.status).toBe("pending");

    const pending = await client.post("/api/v1/audits", { url }, h);
    expect((await pending.json()).data).toEqual(created);

    await complete(created.jobId, { url });
    const done = await client.post("/api/v1/audits", { url }, h);
    expect(done.status).toBe(202);
    expect(done.headers.get("idempotent-replayed")).toBe("true");
    expect((await done.json()).data).toEqual({ ...created, status: "completed" });

    const other = await client.post("/api/v1/llms-txt", { url }, { "idempotency-key": "replay-status-2" });
    const otherJob = (await other.json()).data;
    expect(otherJob).toMatchObject({ status: "pending" });
    await failJob(handle.db, otherJob.jobId, {
      code: "FETCH_FAILED",
      message: "The page could not be fetched.",
    });
    const failed = await client.post("/api/v1/llms-txt", { url }, { "idempotency-key": "replay-status-2" });
    expect((await failed.json()).data).toEqual({ ...otherJob, status: "failed" });

    // 50 for the audit, 20 for llms.txt refunded: one charge each, whatever the replays.
    expect(await balanceOf(handle.db, acct.accountId)).toBe(450);
  });
});

describe("totalUsed is net of refunds", () => {
  test("spends add, refunds of failed jobs take away; balance + totalUsed stays what was granted", async () => {
    const acct = await account({ credits: 300 });
    const client = clientFor(acct);
    const credits = async () => (await (await client.fetch("/api/v1/credits")).json()).data;
    expect(await credits()).toMatchObject({ balance: 300, totalUsed: 0 });

    const a = (await (await client.post("/api/v1/audits", { url })).json()).data;
    const b = (await (await client.post("/api/v1/faq-generator", { url })).json()).data;
    expect(await credits()).toMatchObject({ balance: 230, totalUsed: 70 });

    await failJob(handle.db, b.jobId, { code: "FETCH_FAILED", message: "The page could not be fetched." });
    expect(await credits()).toMatchObject({ balance: 250, totalUsed: 50 });

    await complete(a.jobId, { url });
    const after = await credits();
    expect(after).toMatchObject({ balance: 250, totalUsed: 50 });
    expect(after.balance + after.totalUsed).toBe(300);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });

  test("the documents say so", async () => {
    const doc = await (await fetch(`${api.url}/api/v1/openapi.json`)).text();
    expect(doc).toContain("net of refunds");
  });
});

describe('a missing required field says "Required."', () => {
  const cases: { name: string; path: string; body: unknown; field: string }[] = [
    {
      name: "brand-visibility without prompt",
      path: "/api/v1/brand-visibility",
      body: { domain: "example.com" },
      field: "prompt",
    },
    { name: "audits without url", path: "/api/v1/audits", body: {}, field: "url" },
    {
      name: "core-web-vitals without url",
      path: "/api/v1/core-web-vitals",
      body: { strategy: "mobile" },
      field: "url",
    },
    {
      name: "backlinks-overview without target",
      path: "/api/v1/backlinks-overview",
      body: {},
      field: "target",
    },
    { name: "a domain without its name", path: "/api/v1/domains", body: {}, field: "domain" },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const acct = await account({ credits: 500 });
      const res = await clientFor(acct).post(c.path, c.body);
      expect(res.status).toBe(400);
      const { error } = await res.json();
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(error.message).toContain(`${c.field}: Required.`);
      expect(error.message).not.toMatch(/received undefined|Invalid input|Invalid option/);
      expect(error.details.issues).toContainEqual({ field: c.field, message: "Required." });
    });
  }

  test("the older interface too", async () => {
    const acct = await account({ credits: 10 });
    const { token } = await createLegacyToken(handle.db, acct.accountId, { name: "required" });
    const res = await fetch(`${api.url}/api/tracking/webhook`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({}),
    });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.message).toMatch(/: Required\./);
    expect(error.message).not.toMatch(/received undefined|Invalid input/);
  });

  test("a value of the wrong type keeps its own words", async () => {
    const acct = await account({ credits: 500 });
    const res = await clientFor(acct).post("/api/v1/audits", { url: 42 });
    const { error } = await res.json();
    expect(error.details.issues[0].message).not.toBe("Required.");
  });
});

describe("the HTTPS rule's loopback exemption comes from the socket, not the Host header", () => {
  // A local address that is not loopback, so that a request can arrive from a non-loopback socket.
  const outside = Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && !i.internal && i.family === "IPv4")?.address;

  test.skipIf(!outside)(
    "production server, no trusted proxy: Host: localhost from outside is refused; loopback served",
    async () => {
      vi.stubEnv("REQUIRE_HTTPS", "true");
      const server = await startEdgeServer({ host: "0.0.0.0", trustProxy: "" });
      try {
        const port = new URL(server.url).port;
        const acct = await account({ credits: 10 });
        const fromOutside = await rawRequest(`http://${outside}:${port}`, "GET", "/api/v1/credits", {
          ...acct.headers,
          host: "localhost",
          "x-forwarded-for": "127.0.0.1",
        });
        expect(fromOutside.status).toBe(403);
        expect((fromOutside.json as any).error.code).toBe("HTTPS_REQUIRED");
        const fromLoopback = await rawRequest(`http://127.0.0.1:${port}`, "GET", "/api/v1/credits", {
          ...acct.headers,
          host: "api.example.com",
        });
        expect(fromLoopback.status).toBe(200);
      } finally {
        vi.unstubAllEnvs();
        await server.close();
      }
    },
  );

  test("behind a trusted proxy on loopback, the resolved client decides: a public client needs TLS", async () => {
    vi.stubEnv("REQUIRE_HTTPS", "true");
    const server = await startEdgeServer({ trustProxy: "127.0.0.1" });
    try {
      const acct = await account({ credits: 10 });
      const viaProxy = (headers: Record<string, string>) =>
        rawRequest(server.url, "GET", "/api/v1/credits", { ...acct.headers, host: "localhost", ...headers });
      expect((await viaProxy({ "x-forwarded-for": "203.0.113.9" })).status).toBe(403);
      expect(
        (await viaProxy({ "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "https" })).status,
      ).toBe(200);
      expect((await viaProxy({})).status).toBe(200);
    } finally {
      vi.unstubAllEnvs();
      await server.close();
    }
  });

  test("isLoopbackAddress", () => {
    for (const a of ["127.0.0.1", "127.8.0.1", "::1", "::ffff:127.0.0.1"])
      expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ["localhost", "203.0.113.9", "10.0.0.1", "::ffff:10.0.0.1", "unknown", ""])
      expect(isLoopbackAddress(a), a).toBe(false);
  });
});
