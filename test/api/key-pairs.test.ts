import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import type { TestAccount } from "@/test/accounts";
import type { TestApi } from "@/test/api-server";
import { apiTest } from "@/test/support/fixtures";
import { createTestAccount } from "../accounts";

// Named key pairs over the API: create one per integration, roll with a window, revoke at once.
const test = apiTest.withAccount({ credits: 100 });
let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;
test.beforeAll(({ handle: _handle, api: _api, acct: _acct }) => {
  handle = _handle;
  api = _api;
  acct = _acct;
});

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${api.url}/api/v1${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const pairHeaders = (p: { keyId: string; secret: string }) => ({
  "x-api-key": p.keyId,
  "x-api-secret": p.secret,
});
const credits = async (headers: Record<string, string>) => (await call("GET", "/credits", headers)).status;

describe("named key pairs", () => {
  test("a second named pair works beside the first, each listed with its own limit and last use", async () => {
    const created = await call("POST", "/keys", acct.headers, { name: "tracking snippet" });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: "tracking snippet",
      state: "active",
      rateLimitPerMinute: 60,
    });
    expect(created.body.data.secret).toMatch(/^sks_/);
    const tracking = pairHeaders(created.body.data);
    expect(await credits(tracking)).toBe(200);
    expect(await credits(acct.headers)).toBe(200);

    const list = await call("GET", "/keys", acct.headers);
    expect(list.status).toBe(200);
    const names = list.body.data.keys.map((k: { name: string }) => k.name);
    expect(names).toEqual(expect.arrayContaining(["Default", "tracking snippet"]));
    expect(JSON.stringify(list.body)).not.toContain(created.body.data.secret);
    const snippet = list.body.data.keys.find((k: { name: string }) => k.name === "tracking snippet");
    expect(snippet.lastUsedAt).not.toBeNull();
  });

  test("a name in use by an active pair, bad names and unknown fields are 400 in the envelope", async () => {
    const cases: [string, unknown, string][] = [
      ["name taken", { name: "tracking snippet" }, "key_name_taken"],
      ["empty name", { name: "  " }, ""],
      ["too long", { name: "x".repeat(61) }, ""],
      ["markup", { name: "<script>" }, ""],
      ["NUL", { name: "ci\u0000" }, "unsafe_characters"],
      ["unknown field", { name: "ok", admin: true }, ""],
      ["missing name", {}, ""],
    ];
    for (const [label, body, reason] of cases) {
      const res = await call("POST", "/keys", acct.headers, body);
      expect(res.status, label).toBe(400);
      expect(res.body.error.code, label).toBe("VALIDATION_ERROR");
      expect(res.body.requestId, label).toBeTruthy();
      if (reason) expect(res.body.error.details.reason, label).toBe(reason);
    }
  });

  test("a roll with a window keeps the old pair working until it expires, then it is refused at once", async () => {
    const created = await call("POST", "/keys", acct.headers, { name: "CI" });
    const old = created.body.data;
    const rolled = await call("POST", `/keys/${old.id}/roll`, acct.headers, { window: "1h" });
    expect(rolled.status).toBe(200);
    expect(rolled.body.data.key).toMatchObject({ name: "CI", state: "active" });
    expect(rolled.body.data.replaced).toMatchObject({
      id: old.id,
      state: "rolling",
      replacedBy: rolled.body.data.key.keyId,
    });
    const expiresIn = Date.parse(rolled.body.data.replaced.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(3_500_000);
    expect(expiresIn).toBeLessThanOrEqual(3_600_000);
    expect(await credits(pairHeaders(old))).toBe(200);
    expect(await credits(pairHeaders(rolled.body.data.key))).toBe(200);

    // A rolling pair cannot be rolled again; its replacement can.
    const again = await call("POST", `/keys/${old.id}/roll`, acct.headers, { window: "1h" });
    expect(again.status).toBe(400);
    expect(again.body.error.details.reason).toBe("key_not_active");

    // The window ends: the old pair is refused from its expiry on, though this process has it cached.
    await handle.db.execute(
      sql`update api_keys set expires_at = now() + interval '1 second' where id = ${old.id}`,
    );
    expect(await credits(pairHeaders(old))).toBe(200);
    await new Promise((r) => setTimeout(r, 1300));
    expect(await credits(pairHeaders(old))).toBe(401);
    expect(await credits(pairHeaders(rolled.body.data.key))).toBe(200);
    const list = await call("GET", "/keys", acct.headers);
    expect(list.body.data.keys.find((k: { id: string }) => k.id === old.id).state).toBe("expired");
  });

  test("a roll without a window and a revocation stop the pair at once", async () => {
    const a = (await call("POST", "/keys", acct.headers, { name: "deploy" })).body.data;
    const rolled = await call("POST", `/keys/${a.id}/roll`, acct.headers, { window: "none" });
    expect(rolled.body.data.replaced.state).toBe("revoked");
    expect(await credits(pairHeaders(a))).toBe(401);
    const b = rolled.body.data.key;
    // Revoking a rolling pair ends its window early.
    const c = (await call("POST", `/keys/${b.id}/roll`, acct.headers, { window: "7d" })).body.data;
    expect(await credits(pairHeaders(b))).toBe(200);
    const revoked = await call("DELETE", `/keys/${b.id}`, acct.headers);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.state).toBe("revoked");
    expect(await credits(pairHeaders(b))).toBe(401);
    expect(await credits(pairHeaders(c.key))).toBe(200);
  });

  test("another account's pair and ids that are not UUIDs are 404", async () => {
    const other = await call("POST", "/keys", acct.headers, { name: "mine" });
    const stranger = await createTestAccount(handle.db);
    for (const path of [`/keys/${other.body.data.id}/roll`, "/keys/not-a-uuid/roll"]) {
      const res = await call("POST", path, stranger.headers, { window: "none" });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
    expect((await call("DELETE", `/keys/${other.body.data.id}`, stranger.headers)).status).toBe(404);
    expect(await credits(pairHeaders(other.body.data))).toBe(200);
  });

  test("at most 10 working pairs per account", async () => {
    const account = await createTestAccount(handle.db);
    for (let i = 1; i < 10; i++) {
      expect((await call("POST", "/keys", account.headers, { name: `pair ${i}` })).status).toBe(201);
    }
    const over = await call("POST", "/keys", account.headers, { name: "one more" });
    expect(over.status).toBe(400);
    expect(over.body.error.details).toMatchObject({ reason: "too_many_keys", max: 10 });
  });
});
