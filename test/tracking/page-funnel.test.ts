import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, vi } from "vitest";
import { finishGoogleConnect, startGoogleConnect } from "@/lib/connections/google";
import { connectPlausible, setGa4Property } from "@/lib/connections/manage";
import type { DbHandle } from "@/lib/db/client";
import { memberships, visits } from "@/lib/db/schema";
import { PAGE_SORTS, type PageFunnelRow, type PagesReport, SORT_ORDERS } from "@/lib/funnel/api-schemas";
import { trackingReadCache } from "@/lib/tracking/reports/read-cache";
import { type FakeGoogle, startFakeGoogle } from "@/test/fakes/google";
import { startFakePlausible } from "@/test/fakes/plausible";
import { apiTest } from "@/test/support/fixtures";
import { createTestAccount, type TestAccount } from "../accounts";
import type { TestApi } from "../api-server";
import { callApi, UA } from "./helpers";

// GET /tracking/pages over real HTTP: every figure recounted from the stored visits, every sort and order paged
// to the end, the bounds, another account's domain, and Search Console and GA4 connected or not.
let handle: DbHandle;
let api: TestApi;
let alice: TestAccount;
let google: FakeGoogle;
const DOMAIN = "funnel.example";
const test = apiTest.withAccount({ domains: [DOMAIN] });

const claudeBot =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)";
const now = Date.now();
const DAY = 86_400_000;
const day = (offset: number) => new Date(now - offset * DAY).toISOString().slice(0, 10);

/** A small deterministic generator, so a failure replays. */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const PATHS = [
  "/",
  "/pricing",
  "/blog/a",
  "/blog/b",
  "/docs",
  "/docs/api",
  "/about",
  "/cold-brew",
  "/faq",
  "/z",
];

function events() {
  const r = rng(7);
  const kinds = [
    { userAgent: UA.gptbot, ip: "20.171.207.1" },
    { userAgent: UA.gptbot, ip: "203.0.113.9" },
    { userAgent: claudeBot, ip: "198.51.100.4" },
    { userAgent: UA.chatgptUser, ip: "23.98.142.177" },
    { userAgent: UA.perplexityUser, ip: "198.51.100.5" },
    { userAgent: UA.googlebot, ip: "66.249.66.1" },
    { userAgent: UA.chrome, referrer: "https://chatgpt.com/" },
    { userAgent: UA.chrome, referrer: "https://www.perplexity.ai/search?q=x" },
    { userAgent: UA.chrome, referrer: "https://www.google.com/" },
  ];
  const out = [];
  for (let i = 0; i < 240; i++) {
    const kind = kinds[Math.floor(r() * kinds.length)]!;
    const path = PATHS[Math.floor(r() * (PATHS.length - 1))]! + (r() < 0.2 ? "?utm_source=x" : "");
    // Mostly within the last 10 days; some 40 to 60 days back (outside a 30-day period).
    const ago = r() < 0.15 ? 40 * DAY + r() * 20 * DAY : r() * 10 * DAY;
    out.push({
      id: `e${i}`,
      domain: DOMAIN,
      path,
      ...kind,
      status: 200,
      timestamp: new Date(now - ago).toISOString(),
    });
  }
  // One page only an AI referral reached.
  out.push({
    id: "z1",
    domain: DOMAIN,
    path: "/z",
    userAgent: UA.chrome,
    referrer: "https://chatgpt.com/",
    timestamp: new Date(now - 3600_000).toISOString(),
  });
  return out;
}

test.beforeAll(async ({ handle: _handle, api: _api, acct: _alice }) => {
  handle = _handle;
  api = _api;
  alice = _alice;
  await createTestAccount(handle.db, { domains: ["bob-funnel.example"] });
  trackingReadCache.clear();
  const res = await callApi(api, "/api/v1/tracking/events", {
    method: "POST",
    headers: alice.headers,
    json: { events: events() },
  });
  expect(res.status).toBe(200);
  google = await startFakeGoogle({
    sites: [{ siteUrl: `sc-domain:${DOMAIN}`, permissionLevel: "siteOwner" }],
    search: [
      {
        query: "q1",
        page: `https://${DOMAIN}/pricing`,
        country: "usa",
        device: "DESKTOP",
        date: day(2),
        clicks: 7,
        impressions: 120,
        position: 3,
      },
      {
        query: "q2",
        page: `https://www.${DOMAIN}/pricing`,
        country: "usa",
        device: "MOBILE",
        date: day(3),
        clicks: 3,
        impressions: 80,
        position: 5,
      },
      {
        query: "q3",
        page: `https://${DOMAIN}/docs`,
        country: "gbr",
        device: "DESKTOP",
        date: day(4),
        clicks: 1,
        impressions: 40,
        position: 8,
      },
      // Outside the period.
      {
        query: "q4",
        page: `https://${DOMAIN}/docs`,
        country: "gbr",
        device: "DESKTOP",
        date: day(45),
        clicks: 50,
        impressions: 500,
        position: 2,
      },
    ],
    ga4: {
      "424242": [
        {
          date: day(1).replaceAll("-", ""),
          sessionSource: "chatgpt.com",
          pagePath: "/pricing",
          sessions: 9,
          totalUsers: 8,
          screenPageViews: 12,
        },
        {
          date: day(2).replaceAll("-", ""),
          sessionSource: "google",
          pagePath: "/pricing",
          sessions: 21,
          totalUsers: 20,
          screenPageViews: 30,
        },
        {
          date: day(2).replaceAll("-", ""),
          sessionSource: "google",
          pagePath: "/docs?x=1",
          sessions: 4,
          totalUsers: 4,
          screenPageViews: 4,
        },
      ],
    },
  });
  vi.stubEnv("DATA_ENCRYPTION_KEY", randomBytes(32).toString("base64"));
  vi.stubEnv("PUBLIC_BASE_URL", "https://findable.test");
  vi.stubEnv("ALLOW_PRIVATE_TARGETS", "loopback");
  for (const [k, v] of Object.entries(google.env)) vi.stubEnv(k, v);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await google?.close();
});

const get = (query: string, who: TestAccount = alice) =>
  callApi<PagesReport>(api, `/api/v1/tracking/pages?${query}`, { headers: who.headers });

/** The funnel counted afresh from the stored visits, the definitions written out once more. */
async function recount(days: number) {
  const since = Date.parse(`${day(days - 1)}T00:00:00Z`);
  const rows = (await handle.db.select().from(visits)).filter((v) => v.occurredAt.getTime() >= since);
  const pages = new Map<
    string,
    {
      crawls: number;
      verified: number;
      citations: number;
      referrals: number;
      engines: Record<string, number>;
      assistants: Record<string, number>;
      firstCrawl: number | null;
      firstCitation: number | null;
    }
  >();
  for (const v of rows) {
    const page = v.path.split("?")[0]!;
    const crawl = v.isAiBot && v.citationEngine === null;
    const cite = v.citationEngine !== null;
    if (!crawl && !cite) continue;
    const p = pages.get(page) ?? {
      crawls: 0,
      verified: 0,
      citations: 0,
      referrals: 0,
      engines: {},
      assistants: {},
      firstCrawl: null,
      firstCitation: null,
    };
    const t = v.occurredAt.getTime();
    if (crawl) {
      p.crawls++;
      if (v.verification === "verified") p.verified++;
      p.firstCrawl = p.firstCrawl === null ? t : Math.min(p.firstCrawl, t);
    }
    if (cite) {
      p.citations++;
      p.engines[v.citationEngine!] = (p.engines[v.citationEngine!] ?? 0) + 1;
      if (v.botName) p.assistants[v.botName] = (p.assistants[v.botName] ?? 0) + 1;
      else p.referrals++;
      p.firstCitation = p.firstCitation === null ? t : Math.min(p.firstCitation, t);
    }
    pages.set(page, p);
  }
  return pages;
}

const asRecord = (list: { name: string; count: number }[]) =>
  Object.fromEntries(list.map((e) => [e.name, e.count]));

async function walk(query: string, limit: number): Promise<PageFunnelRow[]> {
  const seen: PageFunnelRow[] = [];
  let cursor: string | null = null;
  for (let n = 0; n < 50; n++) {
    const r = await get(`${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(r.status, JSON.stringify(r.body.error)).toBe(200);
    expect(r.data.pages.length).toBeLessThanOrEqual(limit);
    seen.push(...r.data.pages);
    cursor = r.data.nextCursor;
    if (!cursor) return seen;
  }
  throw new Error("paging did not end");
}

describe("GET /tracking/pages", () => {
  test("every page's figures equal the stored visits counted afresh", async () => {
    for (const days of [1, 7, 30, 90]) {
      trackingReadCache.clear();
      const expected = await recount(days);
      const r = await get(`domain=${DOMAIN}&days=${days}&limit=200`);
      expect(r.status).toBe(200);
      expect(r.res.headers.get("cache-control")).toContain("max-age=120");
      const got = new Map(r.data.pages.map((p) => [p.path, p]));
      expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [path, e] of expected) {
        const g = got.get(path)!;
        expect(g.aiCrawls, path).toEqual({ total: e.crawls, verified: e.verified });
        expect(g.citations.total, path).toBe(e.citations);
        expect(asRecord(g.citations.byEngine), path).toEqual(e.engines);
        expect(asRecord(g.citations.byAssistant), path).toEqual(e.assistants);
        expect(g.aiReferredVisits, path).toBe(e.referrals);
        expect(g.firstCrawlAt, path).toBe(
          e.firstCrawl === null ? null : new Date(e.firstCrawl).toISOString(),
        );
        expect(g.firstCitationAt, path).toBe(
          e.firstCitation === null ? null : new Date(e.firstCitation).toISOString(),
        );
        if (e.firstCrawl !== null && e.firstCitation !== null && e.firstCitation >= e.firstCrawl)
          expect(g.hoursFromFirstCrawlToFirstCitation).toBeCloseTo(
            (e.firstCitation - e.firstCrawl) / 3_600_000,
            1,
          );
        else expect(g.hoursFromFirstCrawlToFirstCitation).toBeNull();
        expect(g.search).toBeNull();
        expect(g.sessions).toBeNull();
      }
      const sum = (f: (p: PageFunnelRow) => number) => r.data.pages.reduce((s, p) => s + f(p), 0);
      expect(r.data.totals).toEqual({
        pages: expected.size,
        aiCrawls: sum((p) => p.aiCrawls.total),
        verifiedAiCrawls: sum((p) => p.aiCrawls.verified),
        citations: sum((p) => p.citations.total),
        aiReferredVisits: sum((p) => p.aiReferredVisits),
      });
      // Per operator: the crawls and referrals of its bots and engines add up to the totals.
      expect(r.data.operators.reduce((s, o) => s + o.aiCrawls, 0)).toBe(r.data.totals.aiCrawls);
      expect(r.data.operators.reduce((s, o) => s + o.aiReferredVisits, 0)).toBe(
        r.data.totals.aiReferredVisits,
      );
      for (const o of r.data.operators)
        expect(o.crawlsPerReferredVisit).toBe(
          o.aiReferredVisits > 0 ? Math.round((o.aiCrawls / o.aiReferredVisits) * 100) / 100 : null,
        );
    }
    const r = await get(`domain=${DOMAIN}&days=30&limit=200`);
    // The data set exercises every figure: crawls, assistants' fetches, referrals and crawl-to-citation times.
    expect(r.data.totals.aiReferredVisits).toBeGreaterThan(5);
    expect(r.data.pages.some((p) => p.citations.byAssistant.length > 0)).toBe(true);
    expect(r.data.pages.some((p) => p.hoursFromFirstCrawlToFirstCitation !== null)).toBe(true);
    expect(r.data.pages.find((p) => p.path === "/z")).toMatchObject({
      aiCrawls: { total: 0 },
      aiReferredVisits: 1,
    });
    expect(r.data.pages.some((p) => p.path.includes("?"))).toBe(false);
    expect(r.data.operators.map((o) => o.operator)).toEqual(expect.arrayContaining(["OpenAI", "Anthropic"]));
    expect(r.data.searchConsole).toMatchObject({ status: "not_connected", source: null, complete: false });
    expect(r.data.analytics).toMatchObject({ status: "not_connected", source: null });
    expect(r.data.searchConsole.message).toContain("/dashboard/connections");
  });

  test("every sort and order pages to the end: no page skipped or repeated, in the listing's order", async () => {
    const full = (await get(`domain=${DOMAIN}&days=30&limit=200`)).data.pages;
    expect(full.length).toBeGreaterThan(5);
    for (const sort of PAGE_SORTS) {
      for (const order of SORT_ORDERS) {
        const whole = await get(`domain=${DOMAIN}&days=30&limit=200&sort=${sort}&order=${order}`);
        const paged = await walk(`domain=${DOMAIN}&days=30&sort=${sort}&order=${order}`, 3);
        expect(
          paged.map((p) => p.path),
          `${sort} ${order}`,
        ).toEqual(whole.data.pages.map((p) => p.path));
        expect(new Set(paged.map((p) => p.path)).size).toBe(full.length);
        const value = (p: PageFunnelRow) =>
          sort === "crawls"
            ? p.aiCrawls.total
            : sort === "citations"
              ? p.citations.total
              : sort === "referrals"
                ? p.aiReferredVisits
                : sort === "firstCitation"
                  ? p.firstCitationAt
                  : p.path;
        for (let i = 1; i < paged.length; i++) {
          const [a, b] = [value(paged[i - 1]!), value(paged[i]!)];
          if (a === null || b === null) {
            expect(b === null || a !== null, `${sort} ${order}: uncited last`).toBe(true);
            continue;
          }
          if (a === b) expect(paged[i - 1]!.path < paged[i]!.path).toBe(true);
          else expect(order === "asc" ? a < b : a > b, `${sort} ${order} at ${i}`).toBe(true);
        }
      }
    }
    // Defaults: most crawls first; the first citation and the path ascending.
    expect((await get(`domain=${DOMAIN}`)).data).toMatchObject({
      sort: "crawls",
      order: "desc",
      periodDays: 30,
    });
    expect((await get(`domain=${DOMAIN}&sort=path`)).data.order).toBe("asc");
  });

  const bad: { name: string; query: string; status: number; code: string }[] = [
    { name: "no domain", query: "days=7", status: 400, code: "VALIDATION_ERROR" },
    { name: "days 0", query: `domain=${DOMAIN}&days=0`, status: 400, code: "VALIDATION_ERROR" },
    { name: "days 91", query: `domain=${DOMAIN}&days=91`, status: 400, code: "VALIDATION_ERROR" },
    { name: "days not a number", query: `domain=${DOMAIN}&days=ten`, status: 400, code: "VALIDATION_ERROR" },
    { name: "limit 0", query: `domain=${DOMAIN}&limit=0`, status: 400, code: "VALIDATION_ERROR" },
    { name: "limit 201", query: `domain=${DOMAIN}&limit=201`, status: 400, code: "VALIDATION_ERROR" },
    { name: "unknown sort", query: `domain=${DOMAIN}&sort=visits`, status: 400, code: "VALIDATION_ERROR" },
    { name: "unknown order", query: `domain=${DOMAIN}&order=up`, status: 400, code: "VALIDATION_ERROR" },
    { name: "garbage cursor", query: `domain=${DOMAIN}&cursor=%%%`, status: 400, code: "VALIDATION_ERROR" },
    {
      name: "cursor of nothing",
      query: `domain=${DOMAIN}&cursor=e30`,
      status: 400,
      code: "VALIDATION_ERROR",
    },
    { name: "unknown parameter", query: `domain=${DOMAIN}&page=2`, status: 400, code: "VALIDATION_ERROR" },
    { name: "malformed domain", query: "domain=not_a_domain", status: 400, code: "VALIDATION_ERROR" },
    {
      name: "another account's domain",
      query: "domain=bob-funnel.example",
      status: 403,
      code: "FORBIDDEN_SCOPE",
    },
    { name: "nobody's domain", query: "domain=nobody-here.example", status: 403, code: "FORBIDDEN_SCOPE" },
  ];
  for (const c of bad) {
    test(`refused: ${c.name}`, async () => {
      const r = await get(c.query);
      expect(r.status).toBe(c.status);
      expect(r.body.success).toBe(false);
      expect(r.body.error?.code).toBe(c.code);
    });
  }

  test("a cursor is refused under another sort, order or period", async () => {
    const first = await get(`domain=${DOMAIN}&days=30&limit=2&sort=crawls`);
    const cursor = first.data.nextCursor!;
    expect(cursor).toBeTruthy();
    for (const q of ["sort=citations", "sort=crawls&order=asc", "sort=crawls&days=7"]) {
      const r = await get(`domain=${DOMAIN}&limit=2&${q}&cursor=${cursor}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error?.details.field).toBe("cursor");
    }
    expect((await get(`domain=${DOMAIN}&days=30&limit=2&sort=crawls&cursor=${cursor}`)).status).toBe(200);
  });

  test("the MCP tool answers what the REST route answers, with typed arguments", async () => {
    const client = new Client({ name: "page-funnel-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${api.url}/api/v1/mcp`), {
        requestInit: { headers: alice.headers },
      }),
    );
    try {
      const rest = await get(`domain=${DOMAIN}&days=30&limit=4&sort=referrals`);
      const res = (await client.callTool({
        name: "get_page_funnel",
        arguments: { domain: DOMAIN, days: 30, limit: 4, sort: "referrals" },
      })) as { isError?: boolean; content: { type: string; text: string }[] };
      expect(res.isError ?? false).toBe(false);
      const data = JSON.parse(res.content[0]!.text) as PagesReport;
      expect(data.pages).toEqual(rest.data.pages);
      expect(data.nextCursor).toBe(rest.data.nextCursor);
    } finally {
      await client.close();
    }
  });

  test("with Google connected: Search Console and GA4 figures per page, from the same period", async () => {
    const [m] = await handle.db.select().from(memberships).where(eq(memberships.accountId, alice.accountId));
    const { url } = startGoogleConnect(process.env, { accountId: alice.accountId, userId: m!.userId });
    const res = await fetch(url, { redirect: "manual" });
    const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
    await finishGoogleConnect(handle.db, process.env, alice.accountId, code);
    trackingReadCache.clear();
    let r = await get(`domain=${DOMAIN}&days=30&limit=200`);
    expect(r.data.searchConsole).toMatchObject({
      status: "connected",
      source: "google-search-console",
      property: `sc-domain:${DOMAIN}`,
      complete: true,
      message: null,
    });
    // No GA4 property chosen for the domain, no Plausible: analytics say so.
    expect(r.data.analytics).toMatchObject({ status: "not_connected" });
    const byPath = new Map(r.data.pages.map((p) => [p.path, p]));
    expect(byPath.get("/pricing")?.search).toEqual({ impressions: 200, clicks: 10 });
    expect(byPath.get("/docs")?.search).toEqual({ impressions: 40, clicks: 1 });
    // A page Search Console does not list (the answer was complete): none.
    expect(byPath.get("/about")?.search).toEqual({ impressions: 0, clicks: 0 });

    await setGa4Property(handle.db, alice.accountId, { domain: DOMAIN, property: "424242" });
    trackingReadCache.clear();
    r = await get(`domain=${DOMAIN}&days=30&limit=200`);
    expect(r.data.analytics).toMatchObject({
      status: "connected",
      source: "ga4",
      property: "properties/424242",
    });
    const again = new Map(r.data.pages.map((p) => [p.path, p]));
    expect(again.get("/pricing")?.sessions).toBe(30);
    expect(again.get("/docs")?.sessions).toBe(4);
    expect(again.get("/about")?.sessions).toBe(0);

    // The grant revoked at Google: said so, and no figure from it.
    google.revokeAll();
    google.expireAccessTokens();
    trackingReadCache.clear();
    r = await get(`domain=${DOMAIN}&days=30&limit=200`);
    expect(r.status).toBe(200);
    expect(r.data.searchConsole.status).toBe("reconnect_required");
    expect(r.data.pages.every((p) => p.search === null && p.sessions === null)).toBe(true);
    expect(r.data.totals.aiCrawls).toBeGreaterThan(0);
  });
  test("with Plausible connected: sessions per page from it; Search Console says it is not connected", async () => {
    const carol = await createTestAccount(handle.db, { domains: ["plausible-funnel.example"] });
    const plausible = await startFakePlausible({
      site: "plausible-funnel.example",
      rows: [
        { date: day(1), source: "ChatGPT", page: "/a", visits: 5, visitors: 5, pageviews: 6 },
        { date: day(2), source: "Google", page: "/a", visits: 2, visitors: 2, pageviews: 2 },
        { date: day(50), source: "Google", page: "/a", visits: 90, visitors: 90, pageviews: 90 },
        // Analytics report the decoded path of a page the crawlers requested percent-encoded.
        { date: day(3), source: "Google", page: "/café", visits: 3, visitors: 3, pageviews: 3 },
      ],
    });
    try {
      await callApi(api, "/api/v1/tracking/events", {
        method: "POST",
        headers: carol.headers,
        json: {
          events: [
            {
              domain: "plausible-funnel.example",
              path: "/a",
              userAgent: UA.gptbot,
              timestamp: new Date(now - DAY).toISOString(),
            },
            {
              domain: "plausible-funnel.example",
              path: "/b",
              userAgent: UA.gptbot,
              timestamp: new Date(now - DAY).toISOString(),
            },
            {
              domain: "plausible-funnel.example",
              path: "/caf%c3%a9", // as some clients escape it
              userAgent: UA.gptbot,
              timestamp: new Date(now - DAY).toISOString(),
            },
          ],
        },
      });
      await connectPlausible(handle.db, process.env, carol.accountId, {
        apiKey: plausible.apiKey,
        baseUrl: plausible.url,
      });
      const r = await get("domain=plausible-funnel.example&days=30&sort=path", carol);
      expect(r.status).toBe(200);
      expect(r.data.analytics).toMatchObject({
        status: "connected",
        source: "plausible",
        property: "plausible-funnel.example",
        complete: true,
      });
      expect(r.data.searchConsole).toMatchObject({ status: "not_connected", source: null });
      expect(r.data.pages.map((p) => [p.path, p.sessions, p.search])).toEqual([
        ["/a", 7, null],
        ["/b", 0, null],
        ["/caf%c3%a9", 3, null],
      ]);
    } finally {
      await plausible.close();
    }
  });
});
