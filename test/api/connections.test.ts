import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, vi } from "vitest";
import { finishGoogleConnect, readGoogleState, startGoogleConnect } from "@/lib/connections/google";
import { connectPlausible, listConnections, setGa4Property } from "@/lib/connections/manage";
import { findConnection, openSecret, updateSecret } from "@/lib/connections/store";
import { getDomainTimeline } from "@/lib/dashboard/domain-timeline";
import type { DbHandle } from "@/lib/db/client";
import { connections, domains, memberships } from "@/lib/db/schema";
import type { GoogleTokens } from "@/lib/providers/google";
import { type FakeGa4Row, type FakeGoogle, type FakeSearchRow, startFakeGoogle } from "@/test/fakes/google";
import { type FakePlausible, startFakePlausible } from "@/test/fakes/plausible";
import { apiTest } from "@/test/support/fixtures";
import type { TestAccount } from "../accounts";
import type { TestApi } from "../api-server";

// Google (OAuth code + refresh, Search Console, GA4) and Plausible connections, against fakes in their formats.
const test = apiTest.withAccount({ domains: ["acme-coffee.com"] });
let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;
let google: FakeGoogle;
let plausible: FakePlausible;
let userId: string;
const env = () => process.env;

const today = new Date();
const day = (offset: number) =>
  new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - offset))
    .toISOString()
    .slice(0, 10);
const compact = (d: string) => d.replaceAll("-", "");

const search: FakeSearchRow[] = [
  {
    query: "cold brew",
    page: "https://acme-coffee.com/cold-brew",
    country: "usa",
    device: "MOBILE",
    date: day(3),
    clicks: 40,
    impressions: 800,
    position: 3.2,
  },
  {
    query: "cold brew",
    page: "https://acme-coffee.com/cold-brew",
    country: "usa",
    device: "DESKTOP",
    date: day(3),
    clicks: 10,
    impressions: 200,
    position: 4,
  },
  {
    query: "acme coffee",
    page: "https://acme-coffee.com/",
    country: "gbr",
    device: "DESKTOP",
    date: day(5),
    clicks: 25,
    impressions: 50,
    position: 1,
  },
  // Outside a 7-day window.
  {
    query: "old query",
    page: "https://acme-coffee.com/old",
    country: "usa",
    device: "DESKTOP",
    date: day(40),
    clicks: 99,
    impressions: 100,
    position: 2,
  },
];
const ga4: FakeGa4Row[] = [
  {
    date: compact(day(1)),
    sessionSource: "google",
    pagePath: "/",
    sessions: 100,
    totalUsers: 80,
    screenPageViews: 250,
  },
  {
    date: compact(day(1)),
    sessionSource: "chatgpt.com",
    pagePath: "/cold-brew",
    sessions: 12,
    totalUsers: 11,
    screenPageViews: 30,
  },
  {
    date: compact(day(2)),
    sessionSource: "perplexity.ai",
    pagePath: "/cold-brew",
    sessions: 5,
    totalUsers: 5,
    screenPageViews: 9,
  },
  {
    date: compact(day(2)),
    sessionSource: "(direct)",
    pagePath: "/",
    sessions: 33,
    totalUsers: 30,
    screenPageViews: 40,
  },
];

test.beforeAll(async ({ handle: _handle, api: _api, acct: _acct }) => {
  handle = _handle;
  api = _api;
  acct = _acct;
  const [m] = await handle.db.select().from(memberships).where(eq(memberships.accountId, acct.accountId));
  userId = m!.userId;
  google = await startFakeGoogle({
    sites: [
      { siteUrl: "sc-domain:acme-coffee.com", permissionLevel: "siteOwner" },
      { siteUrl: "https://other.example/", permissionLevel: "siteUnverifiedUser" },
    ],
    search,
    ga4: { "123456789": ga4 },
  });
  plausible = await startFakePlausible({
    site: "acme-coffee.com",
    rows: [
      { date: day(1), source: "Google", page: "/", visits: 50, visitors: 45, pageviews: 90 },
      { date: day(1), source: "ChatGPT", page: "/cold-brew", visits: 7, visitors: 7, pageviews: 12 },
      { date: day(3), source: "Direct / None", page: "/", visits: 20, visitors: 18, pageviews: 22 },
    ],
  });
  vi.stubEnv("DATA_ENCRYPTION_KEY", randomBytes(32).toString("base64"));
  vi.stubEnv("PUBLIC_BASE_URL", "https://findable.test");
  vi.stubEnv("ALLOW_PRIVATE_TARGETS", "loopback");
  for (const [k, v] of Object.entries(google.env)) vi.stubEnv(k, v);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await google?.close();
  await plausible?.close();
});

async function get(path: string) {
  const res = await fetch(`${api.url}/api/v1${path}`, { headers: acct.headers });
  return { status: res.status, body: await res.json() };
}

/** The consent round trip as the browser makes it: our URL → Google's redirect → our callback's checks. */
async function connectGoogle() {
  const { url, nonce } = startGoogleConnect(env(), { accountId: acct.accountId, userId });
  expect(url.startsWith(`${google.url}/o/oauth2/v2/auth?`)).toBe(true);
  const consent = new URL(url).searchParams;
  expect(consent.get("redirect_uri")).toBe("https://findable.test/api/dashboard/google/callback");
  expect(consent.get("access_type")).toBe("offline");
  expect(consent.get("scope")).toContain("webmasters.readonly");
  const res = await fetch(url, { redirect: "manual" });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get("location")!);
  const state = back.searchParams.get("state")!;
  // A state without the browser's nonce cookie, or tampered with, is refused.
  expect(readGoogleState(env(), state, undefined)).toBeNull();
  expect(readGoogleState(env(), state, "other-nonce")).toBeNull();
  expect(readGoogleState(env(), `${state.split(".")[0]}x.${state.split(".")[1]}`, nonce)).toBeNull();
  expect(readGoogleState(env(), state, nonce, Date.now() + 11 * 60_000)).toBeNull();
  expect(readGoogleState(env(), state, nonce)).toEqual({ accountId: acct.accountId, userId });
  await finishGoogleConnect(handle.db, env(), acct.accountId, back.searchParams.get("code")!);
}

describe("before anything is connected", () => {
  test("search console and traffic say what to connect; a foreign domain is 403; bad queries are 400", async () => {
    const sc = await get("/search-console/queries?domain=acme-coffee.com");
    expect(sc.status).toBe(400);
    expect(sc.body.error.details).toMatchObject({
      reason: "not_connected",
      connectUrl: "/dashboard/connections",
    });
    const tr = await get("/analytics/traffic?domain=acme-coffee.com");
    expect(tr.status).toBe(400);
    expect(tr.body.error.details.reason).toBe("not_connected");
    expect((await get("/search-console/queries?domain=not-mine.com")).status).toBe(403);
    for (const q of [
      "domain=acme-coffee.com&days=0",
      "domain=acme-coffee.com&days=481",
      "domain=acme-coffee.com&dimensions=query,keyword",
      "domain=acme-coffee.com&dimensions=query,query",
      "domain=acme-coffee.com&foo=1",
      "days=7",
    ]) {
      const r = await get(`/search-console/queries?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.code).toBe("VALIDATION_ERROR");
    }
    expect((await get("/analytics/traffic?domain=acme-coffee.com&source=matomo")).status).toBe(400);
  });

  test("without a Google OAuth client the connection is unavailable and names the variables", async () => {
    vi.stubEnv("GOOGLE_CLIENT_ID", "");
    const views = await listConnections(handle.db, env(), acct.accountId);
    expect(views.find((v) => v.provider === "google")).toMatchObject({
      available: false,
      missing: ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"],
      state: "not_connected",
    });
    expect(() => startGoogleConnect(env(), { accountId: acct.accountId, userId })).toThrow(
      /GOOGLE_CLIENT_ID/,
    );
    vi.stubEnv("GOOGLE_CLIENT_ID", google.clientId);
  });
});

describe("Google", () => {
  beforeAll(connectGoogle);

  test("the grant is stored sealed: no token in the row, the email shown", async () => {
    const row = (await findConnection(handle.db, acct.accountId, "google"))!;
    const tokens = openSecret<GoogleTokens>(env(), row);
    expect(tokens.refreshToken).toMatch(/^1\/\/0g/);
    expect(row.sealedSecret).not.toContain(tokens.accessToken);
    expect(row.sealedSecret).not.toContain(tokens.refreshToken);
    expect(row.label).toBe("owner@acme-coffee.com");
    expect(google.tokenCalls.authorization_code).toBe(1);
  });

  test("Search Console: clicks, impressions, CTR and position by query and device from the domain property", async () => {
    const r = await get("/search-console/queries?domain=acme-coffee.com&days=7&dimensions=query,device");
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      domain: "acme-coffee.com",
      property: "sc-domain:acme-coffee.com",
      startDate: day(6),
      endDate: day(0),
      dimensions: ["query", "device"],
      totals: { clicks: 75, impressions: 1050 },
      source: "google-search-console",
    });
    expect(r.body.data.rows).toEqual([
      {
        keys: { query: "cold brew", device: "MOBILE" },
        clicks: 40,
        impressions: 800,
        ctr: 0.05,
        position: 3.2,
      },
      {
        keys: { query: "acme coffee", device: "DESKTOP" },
        clicks: 25,
        impressions: 50,
        ctr: 0.5,
        position: 1,
      },
      {
        keys: { query: "cold brew", device: "DESKTOP" },
        clicks: 10,
        impressions: 200,
        ctr: 0.05,
        position: 4,
      },
    ]);
    const sent = google.requests.filter((q) => q.path.includes("searchAnalytics")).at(-2)!;
    expect(sent.path).toBe("/webmasters/v3/sites/sc-domain%3Aacme-coffee.com/searchAnalytics/query");
    expect(sent.body).toMatchObject({ startDate: day(6), endDate: day(0), dimensions: ["query", "device"] });
  });

  test("an access token past its stored expiry is refreshed first, and the new one stored", async () => {
    const row = (await findConnection(handle.db, acct.accountId, "google"))!;
    const before = openSecret<GoogleTokens>(env(), row);
    await updateSecret(handle.db, env(), row, { ...before, expiresAt: Date.now() - 1000 });
    google.expireAccessTokens();
    const refreshes = google.tokenCalls.refresh_token;
    const r = await get("/search-console/queries?domain=acme-coffee.com&days=7");
    expect(r.status).toBe(200);
    expect(google.tokenCalls.refresh_token).toBe(refreshes + 1);
    const after = openSecret<GoogleTokens>(
      env(),
      (await findConnection(handle.db, acct.accountId, "google"))!,
    );
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).toBe(before.refreshToken);
    expect(after.expiresAt).toBeGreaterThan(Date.now() + 3000_000);
  });

  test("an access token Google refuses early is refreshed once and the call retried", async () => {
    google.expireAccessTokens();
    const refreshes = google.tokenCalls.refresh_token;
    expect((await get("/search-console/queries?domain=acme-coffee.com&days=7")).status).toBe(200);
    expect(google.tokenCalls.refresh_token).toBe(refreshes + 1);
  });

  test("GA4: visits, sources, top pages and the AI-referred sessions split out, through the REST runReport", async () => {
    const missing = await get("/analytics/traffic?domain=acme-coffee.com&source=ga4");
    expect(missing.body.error.details.reason).toBe("ga4_property_not_set");
    await setGa4Property(handle.db, acct.accountId, { domain: "acme-coffee.com", property: "123456789" });
    const r = await get("/analytics/traffic?domain=acme-coffee.com&days=7");
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d).toMatchObject({
      source: "ga4",
      property: "properties/123456789",
      totals: { visits: 150, visitors: 126, pageviews: 329 },
    });
    expect(d.aiReferred).toEqual({
      visits: 17,
      share: 17 / 150,
      byEngine: [
        { engine: "ChatGPT", visits: 12 },
        { engine: "Perplexity", visits: 5 },
      ],
    });
    expect(d.sources[0]).toEqual({ source: "google", visits: 100, aiEngine: null });
    expect(d.sources.find((s: { source: string }) => s.source === "chatgpt.com").aiEngine).toBe("ChatGPT");
    expect(d.topPages).toEqual([
      { path: "/", pageviews: 290 },
      { path: "/cold-brew", pageviews: 39 },
    ]);
    expect(d.daily).toEqual([
      { date: day(2), visits: 38, aiVisits: 5 },
      { date: day(1), visits: 112, aiVisits: 12 },
    ]);
    const call = google.requests.find((q) => q.path.startsWith("/v1beta/properties/123456789:runReport"))!;
    expect(call.method).toBe("POST");
  });

  test("a property the grant cannot read is 403", async () => {
    await setGa4Property(handle.db, acct.accountId, {
      domain: "acme-coffee.com",
      property: "properties/999",
    });
    const r = await get("/analytics/traffic?domain=acme-coffee.com&days=7");
    expect(r.status).toBe(403);
    expect(r.body.error.details.reason).toBe("google_permission_denied");
    await expect(
      setGa4Property(handle.db, acct.accountId, { domain: "acme-coffee.com", property: "UA-1234" }),
    ).rejects.toThrow(/GA4 property ID/);
    await setGa4Property(handle.db, acct.accountId, {
      domain: "acme-coffee.com",
      property: "properties/123456789",
    });
  });

  test("a revoked grant: one refresh attempt, then 'reconnect' from the database without asking Google again", async () => {
    google.revokeAll();
    const first = await get("/search-console/queries?domain=acme-coffee.com&days=7");
    expect(first.status).toBe(400);
    expect(first.body.error.details).toMatchObject({ reason: "reconnect_required", provider: "google" });
    const row = (await findConnection(handle.db, acct.accountId, "google"))!;
    expect(row.status).toBe("revoked");
    expect(row.lastError).toMatch(/expired or revoked/);
    const calls = google.requests.length;
    for (const path of [
      "/search-console/queries?domain=acme-coffee.com",
      "/analytics/traffic?domain=acme-coffee.com&source=ga4",
    ]) {
      const again = await get(path);
      expect(again.status).toBe(400);
      expect(again.body.error.details.reason).toBe("reconnect_required");
    }
    expect(google.requests.length).toBe(calls);
    const view = (await listConnections(handle.db, env(), acct.accountId)).find(
      (v) => v.provider === "google",
    )!;
    expect(view.state).toBe("revoked");
  });
});

describe("Plausible", () => {
  test("refuses a malformed key or address before storing anything", async () => {
    await expect(connectPlausible(handle.db, env(), acct.accountId, { apiKey: "short" })).rejects.toThrow(
      /API key/,
    );
    await expect(
      connectPlausible(handle.db, env(), acct.accountId, { apiKey: plausible.apiKey, baseUrl: "ftp://x" }),
    ).rejects.toThrow(/https/);
    expect(await findConnection(handle.db, acct.accountId, "plausible")).toBeNull();
  });

  test("visits, sources, top pages and AI-referred visits from the Stats API v2", async () => {
    await connectPlausible(handle.db, env(), acct.accountId, {
      apiKey: plausible.apiKey,
      baseUrl: plausible.url,
    });
    const [row] = await handle.db.select().from(connections).where(eq(connections.provider, "plausible"));
    expect(row!.sealedSecret).not.toContain(plausible.apiKey);
    const r = await get("/analytics/traffic?domain=acme-coffee.com&days=7&source=plausible");
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      source: "plausible",
      property: "acme-coffee.com",
      totals: { visits: 77, visitors: 70, pageviews: 124 },
      aiReferred: { visits: 7, byEngine: [{ engine: "ChatGPT", visits: 7 }] },
      topPages: [
        { path: "/", pageviews: 112 },
        { path: "/cold-brew", pageviews: 12 },
      ],
      daily: [
        { date: day(3), visits: 20, aiVisits: 0 },
        { date: day(1), visits: 57, aiVisits: 7 },
      ],
    });
    const q = plausible.requests.at(-1)!;
    expect(q.path).toBe("/api/v2/query");
    expect(q.auth).toBe(`Bearer ${plausible.apiKey}`);
  });

  test("a deleted key: 'reconnect', and no further calls", async () => {
    plausible.revokeKey();
    const r = await get("/analytics/traffic?domain=acme-coffee.com&source=plausible");
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ reason: "reconnect_required", provider: "plausible" });
    const calls = plausible.requests.length;
    expect((await get("/analytics/traffic?domain=acme-coffee.com&source=plausible")).status).toBe(400);
    expect(plausible.requests.length).toBe(calls);
  });
});

describe("the overview's joined timeline", () => {
  test("revoked connections become notes, answered from the database; bot and citation series still show", async () => {
    const [d] = await handle.db.select().from(domains).where(eq(domains.accountId, acct.accountId));
    const googleCalls = google.requests.length;
    const t = await getDomainTimeline(
      handle.db,
      env(),
      acct.accountId,
      { id: d!.id, hostname: d!.hostname },
      7,
    );
    expect(t.days.map((x) => x.day)).toEqual([6, 5, 4, 3, 2, 1, 0].map(day));
    expect(t.days.every((x) => x.searchClicks === null && x.visits === null && x.aiBotVisits === 0)).toBe(
      true,
    );
    expect(t.notes.map((n) => [n.source, /reconnect/.test(n.message)])).toEqual([
      ["search", true],
      ["analytics", true],
    ]);
    expect(google.requests.length).toBe(googleCalls);
  });
});
