import { eq } from "drizzle-orm";
import { describe, expect, vi } from "vitest";
import { registerDomain } from "@/lib/accounts/domains";
import type { DbHandle } from "@/lib/db/client";
import { legacyTokens, visibilityObservations } from "@/lib/db/schema";
import { createLegacyToken, revokeLegacyToken } from "@/lib/keys/legacy-tokens";
import { apiTest } from "@/test/support/fixtures";
import { createTestAccount, setKeyRateLimit, type TestAccount } from "../accounts";
import type { TestApi } from "../api-server";
import { callApi, UA } from "../tracking/helpers";

// The older interface: Bearer tokens (a legacy token or key:secret), the spec's envelope, v1's rules.
let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;
let token: string;
let revoked: string;
const DOMAIN = "legacy.example";
const test = apiTest.withAccount({ domains: [DOMAIN] });
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

test.beforeAll(async ({ handle: _handle, api: _api, acct: _acct }) => {
  handle = _handle;
  api = _api;
  acct = _acct;
  await createTestAccount(handle.db, { domains: ["theirs.example"] });
  token = (await createLegacyToken(handle.db, acct.accountId, { name: "old integration" })).token;
  const dead = await createLegacyToken(handle.db, acct.accountId, { name: "revoked" });
  await revokeLegacyToken(handle.db, acct.accountId, dead.view.id);
  revoked = dead.token;
  // Five bot visits a minute apart (newest: g0) and one citation.
  const events = [0, 1, 2, 3, 4].map((i) => ({
    id: `g${i}`,
    domain: DOMAIN,
    path: `/p${i}`,
    userAgent: i % 2 ? UA.googlebot : UA.gptbot,
    timestamp: new Date(Date.now() - (i + 1) * 60_000).toISOString(),
  }));
  events.push({
    id: "c0",
    domain: DOMAIN,
    path: "/cited",
    userAgent: UA.chatgptUser,
    timestamp: new Date().toISOString(),
  });
  const sent = await callApi(api, "/api/tracking/visits", {
    method: "POST",
    headers: bearer(token),
    json: { events },
  });
  expect(sent.status).toBe(200);
  expect(sent.data).toMatchObject({ received: 6, accepted: 6 });
});

describe("auth", () => {
  const cases: [string, () => Record<string, string>, number][] = [
    ["no credentials", () => ({}), 401],
    ["a malformed bearer", () => bearer("nonsense"), 401],
    ["a wrong legacy token", () => bearer(`lt_${"A".repeat(16)}_${"b".repeat(43)}`), 401],
    ["a revoked legacy token", () => bearer(revoked), 401],
    ["a wrong key:secret", () => bearer(`${acct.key}:sks_${"x".repeat(43)}`), 401],
    ["v1 headers without a bearer", () => acct.headers, 401],
    [
      "Basic auth",
      () => ({ authorization: `Basic ${Buffer.from(`${acct.key}:${acct.secret}`).toString("base64")}` }),
      401,
    ],
    ["a legacy token", () => bearer(token), 200],
    ["the key:secret pair", () => bearer(`${acct.key}:${acct.secret}`), 200],
  ];
  test.each(cases)("%s", async (_name, headers, status) => {
    for (const path of ["/api/auth/me", `/api/tracking/visits?domain=${DOMAIN}`]) {
      const res = await callApi(api, path, { headers: headers() });
      expect(res.status).toBe(status);
      expect(res.body.requestId).toMatch(/^req_/);
      if (status === 401) expect(res.body.error?.code).toBe("UNAUTHORIZED");
      expect(res.res.headers.get("ratelimit-limit")).toBeTruthy();
    }
  });

  test("/api/auth/me: the account, its owner and the token's scope (not next-auth's route)", async () => {
    const { status, data } = await callApi<Record<string, any>>(api, "/api/auth/me", {
      headers: bearer(token),
    });
    expect(status).toBe(200);
    expect(data.account).toMatchObject({ id: acct.accountId, creditBalance: 100 });
    expect(typeof data.account.name).toBe("string");
    expect(data.owner).toMatchObject({ email: acct.email });
    expect(data.token).toMatchObject({ kind: "legacy_token", name: "old integration" });
    expect(data.scope).toMatchObject({ type: "account", accountId: acct.accountId, domains: [DOMAIN] });
    const viaPair = await callApi<Record<string, any>>(api, "/api/auth/me", {
      headers: bearer(`${acct.key}:${acct.secret}`),
    });
    expect(viaPair.data.token).toEqual({ kind: "key_pair", id: acct.key, name: null });
  });

  test("a token is stored hashed and shares its key's rate limit", async () => {
    const [row] = await handle.db.select().from(legacyTokens).where(eq(legacyTokens.name, "old integration"));
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token.slice(20));
    const limited = await createTestAccount(handle.db, { domains: ["limited.example"] });
    const t = (await createLegacyToken(handle.db, limited.accountId, { name: "t" })).token;
    await setKeyRateLimit(handle.db, limited.key, 3);
    const statuses: number[] = [];
    for (const h of [bearer(t), bearer(`${limited.key}:${limited.secret}`), bearer(t), bearer(t)]) {
      const res = await callApi(api, "/api/auth/me", { headers: h });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  test("POST bodies must be JSON", async () => {
    const res = await callApi(api, "/api/tracking/visits", {
      method: "POST",
      headers: { ...bearer(token), "content-type": "text/plain" },
      body: "{}",
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe("VALIDATION_ERROR");
  });
});

describe("scope: another account's domain is 403", () => {
  test.each([
    "/api/tracking/visits?domain=theirs.example",
    "/api/tracking/citations?domain=theirs.example",
    "/api/analytics/visibility?domain=theirs.example",
    "/api/analytics/reports?domain=theirs.example",
    "/api/analytics/reports?domain=theirs.example&format=csv",
  ])("%s", async (path) => {
    const res = await callApi(api, path, { headers: bearer(token) });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "FORBIDDEN_SCOPE", details: { domain: "theirs.example" } });
  });
});

describe("bad parameters are 400 VALIDATION_ERROR", () => {
  test.each([
    "/api/tracking/visits",
    `/api/tracking/visits?domain=${DOMAIN}&limit=0`,
    `/api/tracking/visits?domain=${DOMAIN}&limit=201`,
    `/api/tracking/visits?domain=${DOMAIN}&limit=ten`,
    `/api/tracking/visits?domain=${DOMAIN}&from=yesterday`,
    `/api/tracking/visits?domain=${DOMAIN}&from=2026-02-01&to=2026-01-01`,
    `/api/tracking/visits?domain=${DOMAIN}&aiOnly=maybe`,
    `/api/tracking/visits?domain=${DOMAIN}&cursor=${encodeURIComponent("not a cursor!")}`,
    `/api/tracking/visits?domain=${DOMAIN}&cursor=${Buffer.from("garbage|x").toString("base64url")}`,
    // Times Postgres cannot hold (year 0, a five-digit year after the offset): a 400, not the database's error.
    `/api/tracking/visits?domain=${DOMAIN}&from=0000-01-01`,
    `/api/tracking/visits?domain=${DOMAIN}&to=${encodeURIComponent("9999-12-31T23:59:59-14:00")}`,
    `/api/tracking/visits?domain=${DOMAIN}&cursor=${Buffer.from("-000001-01-01T00:00:00.000Z|5").toString("base64url")}`,
    `/api/tracking/visits?domain=${DOMAIN}&cursor=${Buffer.from("0000-01-01T00:00:00.000Z|5").toString("base64url")}`,
    // Days their month does not have, which Date rolls over into the next month.
    `/api/tracking/visits?domain=${DOMAIN}&from=2026-02-31`,
    `/api/tracking/visits?domain=${DOMAIN}&to=${encodeURIComponent("2026-04-31T00:00:00+02:00")}`,
    `/api/tracking/visits?domain=${DOMAIN}&unknown=1`,
    `/api/tracking/citations?domain=${DOMAIN}&days=91`,
    `/api/tracking/citations?domain=${DOMAIN}&limit=201`,
    `/api/analytics/visibility?domain=${DOMAIN}&days=0`,
    `/api/analytics/visibility?domain=not a host`,
    `/api/analytics/reports?domain=${DOMAIN}&period=year`,
    `/api/analytics/reports?domain=${DOMAIN}&format=xml`,
  ])("%s", async (path) => {
    const res = await callApi(api, path, { headers: bearer(token) });
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe("VALIDATION_ERROR");
  });
});

describe("reads", () => {
  test("visits: bot visits newest first, cursor pages without gaps or repeats", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    const pages: number[] = [];
    do {
      const q: string = `/api/tracking/visits?domain=${DOMAIN}&limit=2${cursor ? `&cursor=${cursor}` : ""}`;
      const res = await callApi<{ visits: { path: string; timestamp: string }[]; nextCursor: string | null }>(
        api,
        q,
        {
          headers: bearer(token),
        },
      );
      expect(res.status).toBe(200);
      pages.push(res.data.visits.length);
      seen.push(...res.data.visits.map((v) => v.path));
      cursor = res.data.nextCursor;
    } while (cursor);
    expect(pages).toEqual([2, 2, 2]);
    // The citation by ChatGPT-User is a bot visit too (an AI engine's user fetcher), newest.
    expect(seen).toEqual(["/cited", "/p0", "/p1", "/p2", "/p3", "/p4"]);
    const ai = await callApi<{ visits: { bot: string; isAIBot: boolean }[] }>(
      api,
      `/api/tracking/visits?domain=${DOMAIN}&aiOnly=true`,
      { headers: bearer(token) },
    );
    expect(ai.data.visits.every((v) => v.isAIBot)).toBe(true);
    const gptbot = await callApi<{ visits: { bot: string }[] }>(
      api,
      `/api/tracking/visits?domain=${DOMAIN}&bot=gptbot`,
      {
        headers: bearer(token),
      },
    );
    expect(gptbot.data.visits.map((v) => v.bot)).toEqual(["GPTBot", "GPTBot", "GPTBot"]);
    const windowed = await callApi<{ visits: unknown[] }>(
      api,
      `/api/tracking/visits?domain=${DOMAIN}&from=${new Date(Date.now() - 2.5 * 60_000).toISOString()}&to=${new Date(Date.now() - 30_000).toISOString()}`,
      { headers: bearer(token) },
    );
    expect(windowed.data.visits).toHaveLength(2);
  });

  test("visits with the longest ids an event may carry page through with their own cursors, and each id lists the visits after it", async () => {
    // A domain of its own (the other reads count the shared one's visits). 128 characters of three UTF-8 bytes
    // each: the longest key in bytes an event can have.
    const host = "long-ids.example";
    await registerDomain(handle.db, acct.accountId, host);
    const longId = (n: number) => `${n}${"\u20ac".repeat(127)}`;
    const at = (n: number) => new Date(Date.now() - 10 * 60_000 - n * 1000).toISOString();
    const sent = await callApi(api, "/api/tracking/visits", {
      method: "POST",
      headers: bearer(token),
      json: {
        events: [1, 2, 3].map((n) => ({
          id: longId(n),
          domain: host,
          path: `/long-${n}`,
          userAgent: UA.gptbot,
          timestamp: at(n),
        })),
      },
    });
    expect(sent.data).toMatchObject({ accepted: 3 });
    const from = new Date(Date.now() - 20 * 60_000).toISOString();
    const to = new Date(Date.now() - 9 * 60_000).toISOString();
    type Page = { visits: { id: string; path: string }[]; nextCursor: string | null };
    const read = (cursor?: string) =>
      callApi<Page>(
        api,
        `/api/tracking/visits?domain=${host}&from=${from}&to=${to}&limit=1${cursor ? `&cursor=${cursor}` : ""}`,
        { headers: bearer(token) },
      );
    const paths: string[] = [];
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 4; page++) {
      const res = await read(cursor);
      expect(res.status).toBe(200);
      paths.push(...res.data.visits.map((v) => v.path));
      ids.push(...res.data.visits.map((v) => v.id));
      if (!res.data.nextCursor) break;
      cursor = res.data.nextCursor;
    }
    expect(paths).toEqual(["/long-1", "/long-2", "/long-3"]);
    const after = await read(ids[0]);
    expect(after.status).toBe(200);
    expect(after.data.visits.map((v) => v.path)).toEqual(["/long-2"]);
  });

  test("citations: as /api/v1/citations", async () => {
    const legacy = await callApi(api, `/api/tracking/citations?domain=${DOMAIN}`, { headers: bearer(token) });
    const v1 = await callApi(api, `/api/v1/citations?domain=${DOMAIN}`, { headers: acct.headers });
    expect(legacy.status).toBe(200);
    expect(legacy.data).toEqual(v1.data);
    expect(legacy.data).toMatchObject({ total: 1, byBot: [{ bot: "ChatGPT", count: 1 }] });
  });

  test("visibility: rates and scores per engine and overall", async () => {
    await handle.db.insert(visibilityObservations).values([
      {
        accountId: acct.accountId,
        domain: DOMAIN,
        engine: "ChatGPT",
        prompt: "p",
        cited: true,
        mentioned: true,
        position: 1,
        sentiment: "positive",
      },
      {
        accountId: acct.accountId,
        domain: DOMAIN,
        engine: "Claude",
        prompt: "p",
        cited: false,
        mentioned: false,
        position: 0,
        sentiment: "neutral",
      },
    ]);
    const res = await callApi<Record<string, any>>(api, `/api/analytics/visibility?domain=${DOMAIN}&days=7`, {
      headers: bearer(token),
    });
    expect(res.status).toBe(200);
    expect(res.data.overall).toMatchObject({
      checks: 2,
      citationRate: 0.5,
      mentionRate: 0.5,
      visibilityScore: 50,
    });
    const chatgpt = res.data.engines.find((e: { engine: string }) => e.engine === "ChatGPT");
    expect(chatgpt).toMatchObject({ checks: 1, citationRate: 1, visibilityScore: 100 });
    expect(chatgpt.series[0]).toMatchObject({ checks: 1, visibilityScore: 100 });
  });

  test("reports: JSON with changes against the previous period, and the same as CSV", async () => {
    const res = await callApi<Record<string, any>>(
      api,
      `/api/analytics/reports?domain=${DOMAIN}&period=week`,
      {
        headers: bearer(token),
      },
    );
    expect(res.status).toBe(200);
    expect(res.data.botVisits.total).toEqual({ current: 6, previous: 0, change: null });
    expect(res.data.botVisits.byBot.map((b: { bot: string }) => b.bot).sort()).toEqual([
      "ChatGPT-User",
      "GPTBot",
      "Googlebot",
    ]);
    expect(res.data.citations.byEngine).toEqual([
      { engine: "ChatGPT", current: 1, previous: 0, change: null },
    ]);
    expect(res.data.citations.byPage).toEqual([{ path: "/cited", current: 1, previous: 0, change: null }]);
    expect(res.data.visibility.visibilityScore.current).toBe(50);
    const csv = await fetch(`${api.url}/api/analytics/reports?domain=${DOMAIN}&period=month&format=csv`, {
      headers: bearer(token),
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    const text = await csv.text();
    expect(text.split("\r\n")[0]).toBe("section,item,detail,current,previous,change");
    expect(text).toContain("citations_by_page,/cited,,1,0,");
  });
});

describe("webhook", () => {
  test("create (secret once), list, test, delete over /api/tracking/webhook", async () => {
    // The test allowance for loopback targets (nothing listens there: no delivery is made in this test).
    vi.stubEnv("ALLOW_PRIVATE_TARGETS", "loopback");
    const created = await callApi<{ id: string; secret: string }>(api, "/api/tracking/webhook", {
      method: "POST",
      headers: bearer(token),
      json: { url: "http://127.0.0.1:9/receive", events: ["job.completed"] },
    });
    expect(created.status).toBe(201);
    expect(created.data.secret).toMatch(/^whsec_/);
    const list = await callApi<{ webhooks: { id: string }[] }>(api, "/api/tracking/webhook", {
      headers: bearer(token),
    });
    expect(list.data.webhooks.map((w) => w.id)).toContain(created.data.id);
    expect(JSON.stringify(list.data)).not.toContain("whsec_");
    const sent = await callApi(api, "/api/tracking/webhook/test", { method: "POST", headers: bearer(token) });
    expect(sent.status).toBe(202);
    const gone = await callApi(api, `/api/tracking/webhook?id=${created.data.id}`, {
      method: "DELETE",
      headers: bearer(token),
    });
    expect(gone.data).toEqual({ id: created.data.id, deleted: true });
    const again = await callApi(api, `/api/tracking/webhook?id=${created.data.id}`, {
      method: "DELETE",
      headers: bearer(token),
    });
    expect(again.status).toBe(404);
    vi.unstubAllEnvs();
  });

  test("a private target is refused", async () => {
    const res = await callApi(api, "/api/tracking/webhook", {
      method: "POST",
      headers: bearer(token),
      json: { url: "http://192.168.1.10/hook", events: ["job.failed"] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.details).toMatchObject({ reason: "private_target" });
  });
});
