import { gzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { domains, visitAgents, visits } from "@/lib/db/schema";
import { trackingReadCache } from "@/lib/tracking/reports/read-cache";
import { createTestAccount, type TestAccount } from "../accounts";
import { startTestApi, type TestApi } from "../api-server";
import { createTestDb } from "../db";
import { callApi, minutesAgo, UA } from "./helpers";

// lean-mount.test.ts runs this file again inside a describe block, where Vitest cannot define file-scoped
// fixtures: the set-up is made in this file's own hooks instead.
let handle: DbHandle;
let api: TestApi;
let alice: TestAccount;
let bob: TestAccount;

beforeAll(async () => {
  handle = await createTestDb();
  api = await startTestApi(handle);
  alice = await createTestAccount(handle.db, { domains: ["alice.example", "shop.alice.example"] });
  bob = await createTestAccount(handle.db, { domains: ["bob.example"] });
});
afterAll(async () => {
  trackingReadCache.setClock(Date.now);
  await api?.close();
  await handle?.close();
});

const post = (path: string, who: TestAccount, json: unknown) =>
  callApi(api, path, { method: "POST", headers: who.headers, json });

describe("data endpoints refuse bad or foreign domains", () => {
  const cases: { name: string; path: string; status: number; code: string }[] = [
    { name: "stats: missing domain", path: "/api/v1/tracking/stats", status: 400, code: "VALIDATION_ERROR" },
    {
      name: "stats: malformed domain",
      path: "/api/v1/tracking/stats?domain=not_a_domain",
      status: 400,
      code: "VALIDATION_ERROR",
    },
    {
      name: "stats: an IP address",
      path: "/api/v1/tracking/stats?domain=10.0.0.1",
      status: 400,
      code: "VALIDATION_ERROR",
    },
    {
      name: "stats: unknown parameter",
      path: "/api/v1/tracking/stats?domain=alice.example&x=1",
      status: 400,
      code: "VALIDATION_ERROR",
    },
    {
      name: "stats: another account's domain",
      path: "/api/v1/tracking/stats?domain=bob.example",
      status: 403,
      code: "FORBIDDEN_SCOPE",
    },
    {
      name: "stats: nobody's domain",
      path: "/api/v1/tracking/stats?domain=unknown.example",
      status: 403,
      code: "FORBIDDEN_SCOPE",
    },
    { name: "citations: missing domain", path: "/api/v1/citations", status: 400, code: "VALIDATION_ERROR" },
    {
      name: "citations: another account's domain",
      path: "/api/v1/citations?domain=bob.example",
      status: 403,
      code: "FORBIDDEN_SCOPE",
    },
    {
      name: "citations: days 0",
      path: "/api/v1/citations?domain=alice.example&days=0",
      status: 400,
      code: "VALIDATION_ERROR",
    },
    {
      name: "citations: days 91",
      path: "/api/v1/citations?domain=alice.example&days=91",
      status: 400,
      code: "VALIDATION_ERROR",
    },
    {
      name: "citations: days not a number",
      path: "/api/v1/citations?domain=alice.example&days=ten",
      status: 400,
      code: "VALIDATION_ERROR",
    },
    {
      name: "citations: limit 201",
      path: "/api/v1/citations?domain=alice.example&limit=201",
      status: 400,
      code: "VALIDATION_ERROR",
    },
    {
      name: "citations: limit 0",
      path: "/api/v1/citations?domain=alice.example&limit=0",
      status: 400,
      code: "VALIDATION_ERROR",
    },
    {
      name: "citations: limit negative",
      path: "/api/v1/citations?domain=alice.example&limit=-5",
      status: 400,
      code: "VALIDATION_ERROR",
    },
    {
      name: "logs: domain not registered",
      path: "/api/v1/tracking/logs?domain=bob.example",
      status: 403,
      code: "FORBIDDEN_SCOPE",
    },
    { name: "logs: missing domain", path: "/api/v1/tracking/logs", status: 400, code: "VALIDATION_ERROR" },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const isLogs = c.path.includes("/logs");
      const { status, body } = await callApi(api, c.path, {
        method: isLogs ? "POST" : "GET",
        headers: { ...alice.headers, ...(isLogs ? { "content-type": "text/plain" } : {}) },
        body: isLogs ? "" : undefined,
      });
      expect(status).toBe(c.status);
      expect(body.error?.code).toBe(c.code);
    });
  }

  test("without credentials: 401", async () => {
    const { status } = await callApi(api, "/api/v1/tracking/stats?domain=alice.example");
    expect(status).toBe(401);
  });

  test("the domain is normalised: upper case and a trailing dot name the same domain", async () => {
    const { status, data } = await callApi<{ domain: string }>(
      api,
      "/api/v1/tracking/stats?domain=ALICE.example.",
      { headers: alice.headers },
    );
    expect(status).toBe(200);
    expect(data.domain).toBe("alice.example");
  });

  test("defaults: days 30, limit 50; maxima 90 and 200 are accepted", async () => {
    const a = await callApi<{ periodDays: number }>(api, "/api/v1/citations?domain=alice.example", {
      headers: alice.headers,
    });
    expect(a.status).toBe(200);
    expect(a.data.periodDays).toBe(30);
    const b = await callApi<{ periodDays: number }>(
      api,
      "/api/v1/citations?domain=alice.example&days=90&limit=200",
      {
        headers: alice.headers,
      },
    );
    expect(b.status).toBe(200);
    expect(b.data.periodDays).toBe(90);
  });
});

describe("POST /tracking/events", () => {
  test("accepts valid events, rejects bad ones by index with reasons", async () => {
    const { status, data } = await post("/api/v1/tracking/events", alice, {
      events: [
        { domain: "alice.example", path: "/a", userAgent: UA.gptbot, timestamp: minutesAgo(5) },
        { domain: "alice.example", path: "no-slash", userAgent: UA.gptbot, timestamp: minutesAgo(5) },
        { domain: "alice.example", path: "/b", userAgent: UA.googlebot, timestamp: "yesterday" },
        { domain: "bob.example", path: "/c", userAgent: UA.googlebot, timestamp: minutesAgo(5) },
        { domain: "alice.example", path: "/d", userAgent: UA.chrome, timestamp: minutesAgo(5) },
        {
          domain: "alice.example",
          path: "/e",
          userAgent: UA.googlebot,
          ip: "300.1.1.1",
          timestamp: minutesAgo(1),
        },
      ],
    });
    expect(status).toBe(200);
    expect(data).toMatchObject({ received: 6, accepted: 1, duplicates: 0, skipped: 1 });
    const rejected = data.rejected as { index: number; errors: { field: string }[] }[];
    expect(rejected.map((r) => r.index)).toEqual([1, 2, 3, 5]);
    expect(rejected.map((r) => r.errors[0]?.field)).toEqual(["path", "timestamp", "domain", "ip"]);
  });

  test("a retried batch is not counted twice (hash of the fields, or the client id)", async () => {
    const events = [
      { domain: "shop.alice.example", path: "/x", userAgent: UA.gptbot, timestamp: minutesAgo(3) },
      {
        id: "evt-1",
        domain: "shop.alice.example",
        path: "/y",
        userAgent: UA.googlebot,
        timestamp: minutesAgo(3),
      },
      {
        id: "evt-2",
        domain: "shop.alice.example",
        path: "/y",
        userAgent: UA.googlebot,
        timestamp: minutesAgo(3),
      },
    ];
    const first = await post("/api/v1/tracking/events", alice, { events });
    expect(first.data).toMatchObject({ accepted: 3, duplicates: 0 });
    const again = await post("/api/v1/tracking/events", alice, { events });
    expect(again.data).toMatchObject({ accepted: 0, duplicates: 3 });
    const stats = await callApi<{ totalVisits: number }>(
      api,
      "/api/v1/tracking/stats?domain=shop.alice.example",
      {
        headers: alice.headers,
      },
    );
    expect(stats.data.totalVisits).toBe(3);
  });

  test("a batch mixing stored events, new ones and repeats of its own stores each new event once, as first sent", async () => {
    // The first attempt of a batch inserts without skipping duplicates; a stored event aborts it and the batch is
    // stored again skipping them. Nothing of the aborted attempt may remain, in the visits or in the rollups.
    const acct = await createTestAccount(handle.db, { domains: ["mixed.example"] });
    // An event is its id and its time (the visits' key holds the time they are partitioned by): an event sent
    // again carries the same timestamp.
    const at = minutesAgo(4);
    const event = (id: string, path: string, status = 200) => ({
      id,
      domain: "mixed.example",
      path,
      userAgent: UA.gptbot,
      status,
      timestamp: at,
    });
    const first = await post("/api/v1/tracking/events", acct, {
      events: [event("a", "/a"), event("b", "/b")],
    });
    expect(first.data).toMatchObject({ received: 2, accepted: 2, duplicates: 0 });
    // Only repeats of its own: nothing stored conflicts, so its plain insert must not fail on itself.
    const own = await post("/api/v1/tracking/events", acct, {
      events: [event("c", "/c"), event("c", "/c-again", 404), event("c", "/c-third", 500)],
    });
    expect(own.data).toMatchObject({ received: 3, accepted: 1, duplicates: 2 });
    const mixed = await post("/api/v1/tracking/events", acct, {
      events: [
        event("d", "/d"),
        event("b", "/b-changed", 404),
        event("e", "/e"),
        event("d", "/d-again", 500),
      ],
    });
    expect(mixed.data).toMatchObject({ received: 4, accepted: 2, duplicates: 2 });
    // The domain's last batch held duplicates: this one is stored skipping them from the start, and the next one
    // without any goes back to the plain insert. Either way each event is stored once.
    const again = await post("/api/v1/tracking/events", acct, {
      events: [event("e", "/e-changed"), event("f", "/f")],
    });
    expect(again.data).toMatchObject({ received: 2, accepted: 1, duplicates: 1 });
    const clean = await post("/api/v1/tracking/events", acct, { events: [event("g", "/g")] });
    expect(clean.data).toMatchObject({ received: 1, accepted: 1, duplicates: 0 });
    const last = await post("/api/v1/tracking/events", acct, {
      events: [event("g", "/g-changed"), event("h", "/h")],
    });
    expect(last.data).toMatchObject({ received: 2, accepted: 1, duplicates: 1 });

    const [domain] = await handle.db.select().from(domains).where(eq(domains.hostname, "mixed.example"));
    const stored = await handle.db
      .select({ key: visits.eventKey, path: visits.path, status: visits.status })
      .from(visits)
      .where(eq(visits.domainId, domain!.id));
    expect(stored.sort((x, y) => x.key.localeCompare(y.key))).toEqual([
      { key: "id:a", path: "/a", status: 200 },
      { key: "id:b", path: "/b", status: 200 },
      { key: "id:c", path: "/c", status: 200 },
      { key: "id:d", path: "/d", status: 200 },
      { key: "id:e", path: "/e", status: 200 },
      { key: "id:f", path: "/f", status: 200 },
      { key: "id:g", path: "/g", status: 200 },
      { key: "id:h", path: "/h", status: 200 },
    ]);
    trackingReadCache.clear();
    const stats = await callApi<{ totalVisits: number; topPages: { url: string; count: number }[] }>(
      api,
      "/api/v1/tracking/stats?domain=mixed.example",
      { headers: acct.headers },
    );
    expect(stats.data.totalVisits).toBe(8);
    expect(stats.data.topPages.map((p) => [p.url, p.count]).sort()).toEqual(
      ["/a", "/b", "/c", "/d", "/e", "/f", "/g", "/h"].map((path) => [path, 1]),
    );
  });

  test("concurrent identical batches store each visit once; overlapping rollups never deadlock", async () => {
    const acct = await createTestAccount(handle.db, { domains: ["race.example"] });
    const events = Array.from({ length: 300 }, (_, i) => ({
      domain: "race.example",
      path: `/p${i % 7}`,
      userAgent: i % 2 ? UA.gptbot : UA.googlebot,
      timestamp: new Date(Date.now() - (i + 1) * 1000).toISOString(),
    }));
    const results = await Promise.all(
      [events, events, [...events].reverse(), events.slice(100)].map((batch) =>
        post("/api/v1/tracking/events", acct, { events: batch }),
      ),
    );
    for (const r of results) expect(r.status).toBe(200);
    const accepted = results.reduce((sum, r) => sum + (r.data.accepted as number), 0);
    expect(accepted).toBe(300);
    trackingReadCache.clear();
    const stats = await callApi<{ totalVisits: number; topPages: { count: number }[] }>(
      api,
      "/api/v1/tracking/stats?domain=race.example",
      { headers: acct.headers },
    );
    expect(stats.data.totalVisits).toBe(300);
    expect(stats.data.topPages.reduce((sum, p) => sum + p.count, 0)).toBe(300);
  });

  test("www. events count for the registered apex", async () => {
    const { data } = await post("/api/v1/tracking/events", bob, {
      events: [{ domain: "www.bob.example", path: "/", userAgent: UA.gptbot, timestamp: minutesAgo(2) }],
    });
    expect(data).toMatchObject({ accepted: 1 });
  });

  const batchCases: { name: string; body: unknown; status: number; code: string }[] = [
    { name: "no events array", body: {}, status: 400, code: "VALIDATION_ERROR" },
    { name: "empty events", body: { events: [] }, status: 400, code: "VALIDATION_ERROR" },
    { name: "a bare array", body: [], status: 400, code: "VALIDATION_ERROR" },
    {
      name: "1001 events",
      body: {
        events: Array.from({ length: 1001 }, () => ({
          domain: "alice.example",
          path: "/",
          userAgent: UA.gptbot,
          timestamp: minutesAgo(1),
        })),
      },
      status: 400,
      code: "VALIDATION_ERROR",
    },
    {
      name: "only unregistered domains",
      body: {
        events: [{ domain: "bob.example", path: "/", userAgent: UA.gptbot, timestamp: minutesAgo(1) }],
      },
      status: 403,
      code: "FORBIDDEN_SCOPE",
    },
  ];
  for (const c of batchCases) {
    test(`batch: ${c.name}`, async () => {
      const { status, body } = await post("/api/v1/tracking/events", alice, c.body);
      expect(status).toBe(c.status);
      expect(body.error?.code).toBe(c.code);
    });
  }

  test("not JSON: 400", async () => {
    const { status } = await callApi(api, "/api/v1/tracking/events", {
      method: "POST",
      headers: { ...alice.headers, "content-type": "text/plain" },
      body: "hello",
    });
    expect(status).toBe(400);
  });

  test("GET is 405", async () => {
    const { status, body } = await callApi(api, "/api/v1/tracking/events", { headers: alice.headers });
    expect(status).toBe(405);
    expect(body.error?.code).toBe("METHOD_NOT_ALLOWED");
  });

  test("every field is stored as sent, whatever the visits of the batch share", async () => {
    // Visits that share a user agent travel as one profile: the domain, referrer, bot and verdicts must still
    // be each visit's own, and text with quotes, backslashes, commas and braces must survive the array encoding.
    const acct = await createTestAccount(handle.db, { domains: ["fields.example", "other-fields.example"] });
    const odd = 'Mozilla/5.0 (compatible; GPTBot/1.2; "odd" \\ {agent}, +https://openai.com/gptbot)';
    const cases = [
      [
        { domain: "fields.example", path: "/a", userAgent: UA.gptbot, ip: "203.0.113.1", status: 200 },
        "GPTBot",
        null,
      ],
      [
        { domain: "fields.example", path: "/b", userAgent: UA.gptbot, ip: "203.0.113.2", status: 404 },
        "GPTBot",
        null,
      ],
      [
        { domain: "other-fields.example", path: "/a", userAgent: UA.gptbot, ip: "203.0.113.1" },
        "GPTBot",
        null,
      ],
      [
        {
          domain: "fields.example",
          path: '/q?x="1",{y}\\z&w=NULL',
          userAgent: UA.chrome,
          referrer: 'https://chatgpt.com/?q="quoted"\\',
          status: 200,
        },
        null,
        "ChatGPT",
      ],
      [
        {
          domain: "fields.example",
          path: "/r",
          userAgent: UA.chrome,
          referrer: "https://www.perplexity.ai/search/x",
        },
        null,
        "Perplexity",
      ],
      [
        { domain: "fields.example", path: "/s?utm_source=chatgpt.com", userAgent: UA.chrome },
        null,
        "ChatGPT",
      ],
      [{ domain: "fields.example", path: "/é ✓", userAgent: odd, ip: "2001:db8::1" }, "GPTBot", null],
      [
        {
          domain: "fields.example",
          path: "/u",
          userAgent: UA.perplexityUser,
          ip: "198.51.100.3",
          status: 301,
        },
        "Perplexity-User",
        "Perplexity",
      ],
    ] as const;
    const start = Date.now() - 60_000;
    const sent = cases.map(([e], i) => ({ ...e, timestamp: new Date(start - i * 1234 - 7).toISOString() }));
    const res = await post("/api/v1/tracking/events", acct, { events: sent });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ received: 8, accepted: 8, duplicates: 0, skipped: 0 });
    const stored = await handle.db
      .select({ v: visits, host: domains.hostname, userAgent: visitAgents.userAgent })
      .from(visits)
      .innerJoin(domains, eq(domains.id, visits.domainId))
      .innerJoin(visitAgents, eq(visitAgents.id, visits.agentId))
      .where(eq(domains.accountId, acct.accountId));
    const byTime = (a: { timestamp: string }, b: { timestamp: string }) =>
      a.timestamp.localeCompare(b.timestamp);
    const got = stored
      .map(({ v, host, userAgent }) => ({
        domain: host,
        path: v.path,
        userAgent,
        ip: v.ip,
        referrer: v.referrer,
        status: v.status,
        timestamp: v.occurredAt.toISOString(),
        bot: v.botName,
        citation: v.citationEngine,
      }))
      .sort(byTime);
    const expected = sent
      .map((e, i) => {
        const [, bot, citation] = cases[i]!;
        return {
          domain: e.domain,
          path: e.path,
          userAgent: e.userAgent,
          ip: bot && "ip" in e ? e.ip : null, // people's addresses are not kept
          referrer: "referrer" in e ? e.referrer : null,
          status: "status" in e ? e.status : null,
          timestamp: e.timestamp,
          bot,
          citation,
        };
      })
      .sort(byTime);
    expect(got).toEqual(expected);
  });

  test("stored visits carry classification, verification and citation; humans keep no address", async () => {
    const acct = await createTestAccount(handle.db, { domains: ["stored.example"] });
    await post("/api/v1/tracking/events", acct, {
      events: [
        {
          domain: "stored.example",
          path: "/p",
          userAgent: UA.chatgptUser,
          ip: "203.0.113.9",
          timestamp: minutesAgo(4),
        },
        {
          domain: "stored.example",
          path: "/q",
          userAgent: UA.chrome,
          ip: "198.51.100.7",
          referrer: "https://chatgpt.com/",
          timestamp: minutesAgo(4),
        },
      ],
    });
    // A visit with its agent's fields (visit_agents).
    const stored = async (path: string) =>
      (
        await handle.db
          .select()
          .from(visits)
          .innerJoin(visitAgents, eq(visitAgents.id, visits.agentId))
          .where(eq(visits.path, path))
      ).map((r) => ({ ...r.visit_agents, ...r.visits }));
    const rows = await stored("/p");
    expect(rows[0]).toMatchObject({
      botName: "ChatGPT-User",
      botPurpose: "ai_user_fetch",
      isAiBot: true,
      citationEngine: "ChatGPT",
      citationReason: "user_fetch",
      ip: "203.0.113.9",
    });
    expect(["verified", "unverified", "unknown"]).toContain(rows[0]?.verification);
    const [human] = await stored("/q");
    expect(human).toMatchObject({
      botName: null,
      citationEngine: "ChatGPT",
      citationReason: "referral",
      ip: null,
    });
  });
});

const LOG_LINES = [
  `66.249.66.1 - - [${clf(10)}] "GET /docs HTTP/1.1" 200 512 "-" "${UA.googlebot}"`,
  `20.171.207.1 - - [${clf(9)}] "GET /docs?x=1 HTTP/1.1" 200 512 "-" "${UA.gptbot}"`,
  "this is not a log line",
  `1.2.3.4 - - [${clf(8)}] "GET /human HTTP/1.1" 200 100 "https://www.perplexity.ai/search/q" "${UA.chrome}"`,
  `1.2.3.5 - - [${clf(8)}] "GET /plain HTTP/1.1" 200 100 "-" "${UA.chrome}"`,
  `1.2.3.6 - - [${clf(7)}] "GET /common HTTP/1.0" 200 100`,
  `66.249.66.1 - - [99/Foo/2024:00:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "${UA.googlebot}"`,
];

function clf(minutesBack: number): string {
  const d = new Date(Date.now() - minutesBack * 60_000);
  const mon = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][
    d.getUTCMonth()
  ];
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getUTCDate())}/${mon}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

describe("POST /tracking/logs", () => {
  test("a combined log: bots and AI-referred people recorded, bad lines reported, not fatal", async () => {
    const acct = await createTestAccount(handle.db, { domains: ["logs.example"] });
    const { status, data } = await callApi<Record<string, unknown>>(
      api,
      "/api/v1/tracking/logs?domain=logs.example",
      {
        method: "POST",
        headers: { ...acct.headers, "content-type": "text/plain" },
        body: `${LOG_LINES.join("\n")}\n`,
      },
    );
    expect(status).toBe(200);
    expect(data).toMatchObject({
      domain: "logs.example",
      lines: 7,
      accepted: 4,
      duplicates: 0,
      rejectedCount: 2,
    });
    // "/plain" is a person nobody referred (skipped); "/common" has no user agent, which counts as a bot.
    expect(data.skipped).toBe(1);
    expect((data.rejected as { line: number }[]).map((r) => r.line)).toEqual([3, 7]);
    const again = await callApi<Record<string, unknown>>(api, "/api/v1/tracking/logs?domain=logs.example", {
      method: "POST",
      headers: { ...acct.headers, "content-type": "application/gzip" },
      body: gzipSync(`${LOG_LINES.join("\n")}\n`),
    });
    expect(again.data).toMatchObject({ accepted: 0, duplicates: 4 });
    const stats = await callApi<{ topPages: { url: string; count: number }[] }>(
      api,
      "/api/v1/tracking/stats?domain=logs.example",
      { headers: acct.headers },
    );
    expect(stats.data.topPages).toEqual([
      { url: "/docs", count: 2 },
      { url: "/common", count: 1 },
    ]);
  });

  test("lines more than 90 days old or more than 5 minutes ahead are rejected, each with its reason, as events are", async () => {
    const acct = await createTestAccount(handle.db, { domains: ["ages.example"] });
    const day = 24 * 60;
    const lines = [
      `66.249.66.1 - - [${clf(91 * day)}] "GET /too-old HTTP/1.1" 200 512 "-" "${UA.googlebot}"`,
      `66.249.66.1 - - [${clf(89 * day)}] "GET /old HTTP/1.1" 200 512 "-" "${UA.googlebot}"`,
      `66.249.66.1 - - [${clf(-10)}] "GET /ahead HTTP/1.1" 200 512 "-" "${UA.googlebot}"`,
      `66.249.66.1 - - [${clf(1)}] "GET /now HTTP/1.1" 200 512 "-" "${UA.googlebot}"`,
    ];
    const { status, data } = await callApi<Record<string, unknown>>(
      api,
      "/api/v1/tracking/logs?domain=ages.example",
      {
        method: "POST",
        headers: { ...acct.headers, "content-type": "text/plain" },
        body: `${lines.join("\n")}\n`,
      },
    );
    expect(status).toBe(200);
    expect(data).toMatchObject({ lines: 4, accepted: 2, rejectedCount: 2 });
    expect(data.rejected).toEqual([
      { line: 1, reason: "timestamp is more than 90 days old" },
      { line: 3, reason: "timestamp is more than 5 minutes in the future" },
    ]);
    const [domain] = await handle.db.select().from(domains).where(eq(domains.hostname, "ages.example"));
    const stored = await handle.db
      .select({ path: visits.path })
      .from(visits)
      .where(eq(visits.domainId, domain!.id));
    expect(stored.map((v) => v.path).sort()).toEqual(["/now", "/old"]);
  });

  test("a log's addresses are stored as an event's are: IPv6 canonical, IPv4-mapped as IPv4, without a port", async () => {
    const acct = await createTestAccount(handle.db, { domains: ["addr.example"] });
    const line = (client: string, path: string) =>
      `${client} - - [${clf(5)}] "GET ${path} HTTP/1.1" 200 512 "-" "${UA.googlebot}"`;
    const body = `${[
      line("66.249.66.1", "/v4"),
      line("::FFFF:66.249.66.1", "/mapped"),
      line("2001:DB8:0:0:0:0:0:5", "/v6"),
      line("[2001:db8::6]:443", "/v6-port"),
    ].join("\n")}\n`;
    const upload = () =>
      callApi<Record<string, unknown>>(api, "/api/v1/tracking/logs?domain=addr.example", {
        method: "POST",
        headers: { ...acct.headers, "content-type": "text/plain" },
        body,
      });
    expect((await upload()).data).toMatchObject({ accepted: 4, rejectedCount: 0 });
    // The lines' keys are theirs as written: the same log again stores nothing.
    expect((await upload()).data).toMatchObject({ accepted: 0, duplicates: 4 });
    const [domain] = await handle.db.select().from(domains).where(eq(domains.hostname, "addr.example"));
    const stored = await handle.db
      .select({ path: visits.path, ip: visits.ip, verification: visits.verification })
      .from(visits)
      .where(eq(visits.domainId, domain!.id));
    const byPath = Object.fromEntries(stored.map((v) => [v.path, v]));
    expect(byPath["/v4"]?.ip).toBe("66.249.66.1");
    expect(byPath["/mapped"]).toEqual({ ...byPath["/v4"], path: "/mapped" });
    expect(byPath["/v6"]?.ip).toBe("2001:db8::5");
    expect(byPath["/v6-port"]?.ip).toBe("2001:db8::6");
  });

  test("Content-Encoding: gzip is undone", async () => {
    const acct = await createTestAccount(handle.db, { domains: ["gz.example"] });
    const { data } = await callApi(api, "/api/v1/tracking/logs?domain=gz.example", {
      method: "POST",
      headers: { ...acct.headers, "content-type": "text/plain", "content-encoding": "gzip" },
      body: gzipSync(LOG_LINES[0]!),
    });
    expect(data).toMatchObject({ accepted: 1 });
  });

  const badUploads: {
    name: string;
    headers: Record<string, string>;
    body: () => BodyInit;
    reason: string;
  }[] = [
    {
      name: "XML content type",
      headers: { "content-type": "application/xml" },
      body: () => "<log/>",
      reason: "unsupported_content_type",
    },
    {
      name: "a JSON array that is not valid JSON",
      headers: { "content-type": "application/json" },
      body: () => '[{"deploymentId": "dpl_1", "proxy": {',
      reason: "malformed_json",
    },
    {
      name: "brotli",
      headers: { "content-type": "text/plain", "content-encoding": "br" },
      body: () => "x",
      reason: "unsupported_content_encoding",
    },
    {
      name: "over 10 MB",
      headers: { "content-type": "text/plain" },
      body: () => Buffer.alloc(10 * 1024 * 1024 + 1, 0x61),
      reason: "body_too_large",
    },
    {
      name: "a gzip bomb (over 10 MB inflated)",
      headers: { "content-type": "application/gzip" },
      body: () => gzipSync(Buffer.alloc(11 * 1024 * 1024, 0x61)),
      reason: "body_too_large",
    },
    {
      name: "corrupt gzip",
      headers: { "content-type": "application/gzip" },
      body: () => Buffer.from([0x1f, 0x8b, 1, 2, 3]),
      reason: "malformed_gzip",
    },
  ];
  for (const c of badUploads) {
    test(`refused: ${c.name}`, async () => {
      const { status, body } = await callApi(api, "/api/v1/tracking/logs?domain=alice.example", {
        method: "POST",
        headers: { ...alice.headers, ...c.headers },
        body: c.body(),
      });
      expect(status).toBe(400);
      expect(body.error?.details.reason).toBe(c.reason);
    });
  }

  test("the logs of IIS and Caddy, each detected and read: bots counted, an AI-referred visit a citation", async () => {
    const acct = await createTestAccount(handle.db, { domains: ["servers.example"] });
    const at = new Date(Date.now() - 3_600_000);
    const [date, time] = at.toISOString().slice(0, 19).split("T") as [string, string];
    const iis = [
      "#Software: Microsoft Internet Information Services 10.0",
      "#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken",
      `${date} ${time} 10.0.0.4 GET /iis-page - 443 - 20.171.207.2 Mozilla/5.0+AppleWebKit/537.36+(KHTML,+like+Gecko;+compatible;+GPTBot/1.2;++https://openai.com/gptbot) - 200 0 0 15`,
    ].join("\r\n");
    const caddy = JSON.stringify({
      level: "info",
      ts: at.getTime() / 1000,
      logger: "http.log.access",
      msg: "handled request",
      request: {
        remote_ip: "198.51.100.20",
        client_ip: "198.51.100.20",
        proto: "HTTP/2.0",
        method: "GET",
        host: "servers.example",
        uri: "/caddy-page?utm_source=chatgpt.com",
        headers: {
          "User-Agent": [
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15",
          ],
          Referer: ["https://chatgpt.com/"],
        },
      },
      size: 512,
      status: 200,
    });
    for (const body of [iis, caddy]) {
      const { status, data } = await callApi<Record<string, unknown>>(
        api,
        "/api/v1/tracking/logs?domain=servers.example",
        { method: "POST", headers: { ...acct.headers, "content-type": "text/plain" }, body },
      );
      expect(status).toBe(200);
      expect(data).toMatchObject({ accepted: 1, rejectedCount: 0 });
    }
    const stats = await callApi<{ topBots: { name: string }[]; topPages: { url: string }[] }>(
      api,
      "/api/v1/tracking/stats?domain=servers.example",
      { headers: acct.headers },
    );
    expect(stats.data.topBots.map((b) => b.name)).toEqual(["GPTBot"]);
    expect(stats.data.topPages.map((p) => p.url)).toEqual(["/iis-page"]);
    const citations = await callApi<{ total: number; citations: { bot: string; path: string }[] }>(
      api,
      "/api/v1/citations?domain=servers.example",
      { headers: acct.headers },
    );
    expect(citations.data.total).toBe(1);
    expect(citations.data.citations[0]).toMatchObject({
      bot: "ChatGPT",
      path: "/caddy-page?utm_source=chatgpt.com",
    });
  });

  test("a Vercel log drain's pushes: a JSON array or NDJSON, one visit per request, other sites skipped", async () => {
    const acct = await createTestAccount(handle.db, { domains: ["drain.example"] });
    const at = Date.now() - 600_000;
    // Records as Vercel's drains send them: a build's output, a function's two lines for one request (each with
    // the request under proxy), a static file, a request for another project of a team-wide drain.
    let n = 0;
    const record = (over: Record<string, unknown>, proxy?: Record<string, unknown>) => ({
      id: `1573817250283254651097${String(++n).padStart(6, "0")}`,
      deploymentId: "dpl_233NRGRjVZX1caZrXWtz5g1TAksD",
      projectId: "gdufoJxB6b9b1fEqr1jUtFkyavUU",
      host: "drain-abc123.vercel.app",
      timestamp: at + 5,
      level: "info",
      ...over,
      ...(proxy && {
        proxy: {
          timestamp: at,
          method: "GET",
          host: "www.drain.example",
          region: "fra1",
          statusCode: 200,
          scheme: "https",
          ...proxy,
        },
      }),
    });
    const fn = { path: "/docs?x=1", userAgent: [UA.gptbot], clientIp: "20.171.207.2" };
    const first = [
      record({ source: "build", message: "Build completed", type: "stdout" }),
      record({ source: "lambda", requestId: "req-1", message: "query 1", type: "stdout" }, fn),
      record({ source: "lambda", requestId: "req-1", message: "x".repeat(40_000), type: "stdout" }, fn),
      record(
        { source: "static", requestId: "req-2" },
        { path: "/pricing", userAgent: [UA.chatgptUser], referer: "https://chatgpt.com/", timestamp: at + 1 },
      ),
      record(
        { source: "static", requestId: "req-3" },
        { path: "/x", userAgent: [UA.gptbot], host: "other.example" },
      ),
    ];
    const push = (body: string, type: string) =>
      callApi<Record<string, unknown>>(api, "/api/v1/tracking/logs?domain=drain.example&format=vercel", {
        method: "POST",
        headers: { ...acct.headers, "content-type": type },
        body,
      });
    const json = await push(JSON.stringify(first), "application/json");
    expect(json.status).toBe(200);
    expect(json.data).toMatchObject({ lines: 5, accepted: 2, duplicates: 0, skipped: 3, rejectedCount: 0 });
    // The next push holds a third line of the same request and a new one, as NDJSON: only the new one is stored.
    const second = [
      record({ source: "lambda", requestId: "req-1", message: "done", type: "stdout" }, fn),
      record(
        { source: "redirect", requestId: "req-4" },
        { path: "/old", userAgent: [UA.gptbot], statusCode: 308 },
      ),
    ];
    const ndjson = await push(`${second.map((r) => JSON.stringify(r)).join("\n")}\n`, "application/x-ndjson");
    expect(ndjson.data).toMatchObject({ lines: 2, accepted: 1, duplicates: 1, rejectedCount: 0 });
    const [domain] = await handle.db.select().from(domains).where(eq(domains.hostname, "drain.example"));
    const stored = await handle.db
      .select({ path: visits.path, status: visits.status, ip: visits.ip })
      .from(visits)
      .where(eq(visits.domainId, domain!.id));
    expect(stored.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: "/docs?x=1", status: 200, ip: "20.171.207.2" },
      { path: "/old", status: 308, ip: null },
      { path: "/pricing", status: 200, ip: null },
    ]);
  });

  test("a drain's requests are the domain's whatever the spelling of their host: case, port, international names", async () => {
    const acct = await createTestAccount(handle.db, { domains: ["bücher.example"] });
    const at = Date.now() - 600_000;
    const record = (host: string, path: string) => ({
      id: `rec-${path}`,
      deploymentId: "dpl_1",
      source: "static",
      requestId: `req${path}`,
      timestamp: at,
      proxy: { timestamp: at, method: "GET", host, path, userAgent: [UA.gptbot], statusCode: 200 },
    });
    const { status, data } = await callApi<Record<string, unknown>>(
      api,
      "/api/v1/tracking/logs?domain=xn--bcher-kva.example&format=vercel",
      {
        method: "POST",
        headers: { ...acct.headers, "content-type": "application/json" },
        body: JSON.stringify([
          record("WWW.Bücher.example:443", "/unicode"),
          record("shop.xn--bcher-kva.example", "/sub"),
          record("bucher.example", "/other"),
          record("xn--bcher-kva.example.evil.test", "/suffix"),
        ]),
      },
    );
    expect(status).toBe(200);
    expect(data).toMatchObject({ lines: 4, accepted: 2, skipped: 2, rejectedCount: 0 });
  });

  test("a Cloudflare Logpush HTTP destination: its check, then gzipped NDJSON with no content type, key in a header", async () => {
    const acct = await createTestAccount(handle.db, { domains: ["logpush.example"] });
    // Logpush turns its destination URL's header_* parameters into request headers
    // (header_Authorization=Bearer%20…) and may send no content type; a Uint8Array body makes fetch send none.
    const bearer = `Bearer ${acct.headers["x-api-key"]}:${acct.headers["x-api-secret"]}`;
    const base = "/api/v1/tracking/logs?domain=logpush.example&format=cloudflare";
    const push = (body: string, query = "", authorization: string | null = bearer) =>
      callApi<Record<string, unknown>>(api, `${base}${query}`, {
        method: "POST",
        headers: { ...(authorization ? { authorization } : {}), "content-encoding": "gzip" },
        body: new Uint8Array(gzipSync(body)),
      });
    // Should the header_* parameters stay in the URL as well, they are ignored, whatever they hold.
    const headerParams = `&header_Authorization=${encodeURIComponent(bearer)}&header_Content-Type=application%2Fx-ndjson`;
    for (const [check, query] of [
      ["test", ""],
      ['{"content":"tests"}\n', headerParams],
    ] as const) {
      const { status, data, body } = await push(check, query);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(data).toMatchObject({ lines: 1, accepted: 0, skipped: 1, rejectedCount: 0 });
    }
    // Only that prefix is let through, and a key in the URL authenticates nothing.
    const unknown = await push("test", `${headerParams}&headers_x=1`);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: { code: "VALIDATION_ERROR" } });
    expect(JSON.stringify(unknown.body)).toContain("headers_x");
    expect((await push("test", headerParams, null)).status).toBe(401);
    const at = Date.now() - 600_000;
    const record = (ray: string, uri: string, ua: string, timestamp: string | number, referer = "") => ({
      RayID: ray,
      ClientIP: "20.171.207.2",
      ClientRequestHost: "www.logpush.example",
      ClientRequestMethod: "GET",
      ClientRequestURI: uri,
      ClientRequestProtocol: "HTTP/2",
      ClientRequestReferer: referer,
      ClientRequestUserAgent: ua,
      EdgeStartTimestamp: timestamp,
      EdgeResponseStatus: 200,
      EdgeResponseBytes: 2048,
    });
    const batch = [
      record("8f1c0a2b3c4d5e6f", "/docs", UA.gptbot, new Date(at).toISOString()),
      // The timestamps a job's API default writes: nanoseconds since the epoch.
      record("8f1c0a2b3c4d5e70", "/pricing", UA.chatgptUser, at * 1_000_000 + 1_000, "https://chatgpt.com/"),
    ];
    const first = await push(`${batch.map((r) => JSON.stringify(r)).join("\n")}\n`);
    expect(first.status).toBe(200);
    expect(first.data).toMatchObject({ lines: 2, accepted: 2, duplicates: 0, skipped: 0, rejectedCount: 0 });
    // Logpush delivers at least once: the same batch again stores nothing.
    const again = await push(`${batch.map((r) => JSON.stringify(r)).join("\n")}\n`);
    expect(again.data).toMatchObject({ accepted: 0, duplicates: 2 });
    const [domain] = await handle.db.select().from(domains).where(eq(domains.hostname, "logpush.example"));
    const stored = await handle.db
      .select({ path: visits.path, at: visits.occurredAt, ip: visits.ip })
      .from(visits)
      .where(eq(visits.domainId, domain!.id));
    expect(stored.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: "/docs", at: new Date(at), ip: "20.171.207.2" },
      { path: "/pricing", at: new Date(at), ip: "20.171.207.2" },
    ]);
  });

  test("an Akamai DataStream 2 push: encoded user agents read, another hostname of the property skipped", async () => {
    const acct = await createTestAccount(handle.db, { domains: ["stream.example"] });
    const seconds = (Date.now() - 600_000) / 1000;
    const encode = (text: string) => encodeURIComponent(text).replace(/%20/g, "+");
    const record = (host: string, path: string, ua: string, query?: string) => ({
      version: 1,
      streamId: "12345",
      cp: "123456",
      reqTimeSec: seconds.toFixed(3),
      cliIP: "20.171.207.2",
      statusCode: "200",
      proto: "HTTPS",
      reqHost: host,
      reqMethod: "GET",
      reqPath: path,
      ...(query && { queryStr: query }),
      UA: encode(ua),
    });
    const body = [
      record("www.stream.example", "/docs", UA.gptbot, "v=2"),
      record("stream.example", "/pricing", UA.chatgptUser),
      record("shop.other.example", "/cart", UA.gptbot),
    ]
      .map((r) => JSON.stringify(r))
      .join("\n");
    const push = () =>
      callApi<Record<string, unknown>>(api, "/api/v1/tracking/logs?domain=stream.example&format=akamai", {
        method: "POST",
        headers: {
          authorization: `Bearer ${acct.headers["x-api-key"]}:${acct.headers["x-api-secret"]}`,
          "content-type": "application/json",
          "content-encoding": "gzip",
        },
        body: new Uint8Array(gzipSync(body)),
      });
    const first = await push();
    expect(first.status).toBe(200);
    expect(first.data).toMatchObject({ lines: 3, accepted: 2, skipped: 1, rejectedCount: 0 });
    expect((await push()).data).toMatchObject({ accepted: 0, duplicates: 2 });
    const stats = await callApi<{ topBots: { name: string }[] }>(
      api,
      "/api/v1/tracking/stats?domain=stream.example",
      {
        headers: acct.headers,
      },
    );
    expect(stats.data.topBots.map((b) => b.name).sort()).toEqual(["ChatGPT-User", "GPTBot"]);
    const [domain] = await handle.db.select().from(domains).where(eq(domains.hostname, "stream.example"));
    const stored = await handle.db
      .select({ path: visits.path })
      .from(visits)
      .where(eq(visits.domainId, domain!.id));
    expect(stored.map((v) => v.path).sort()).toEqual(["/docs?v=2", "/pricing"]);
  });

  test("reports at most 100 bad lines, with the full count", async () => {
    const acct = await createTestAccount(handle.db, { domains: ["badlines.example"] });
    const { data } = await callApi<{ rejected: unknown[]; rejectedCount: number }>(
      api,
      "/api/v1/tracking/logs?domain=badlines.example",
      {
        method: "POST",
        headers: { ...acct.headers, "content-type": "text/plain" },
        body: "junk\n".repeat(250),
      },
    );
    expect(data.rejected).toHaveLength(100);
    expect(data.rejectedCount).toBe(250);
  });
});

describe("stats and citations are cached about 2 minutes", () => {
  test("a second read within the window is the cached answer; after 2 minutes it is fresh", async () => {
    let now = Date.now();
    trackingReadCache.setClock(() => now);
    const acct = await createTestAccount(handle.db, { domains: ["cache.example"] });
    const ev = (path: string, ua = UA.gptbot) => ({
      domain: "cache.example",
      path,
      userAgent: ua,
      timestamp: minutesAgo(1),
    });
    await post("/api/v1/tracking/events", acct, { events: [ev("/1")] });
    const read = () =>
      callApi<{ totalVisits: number }>(api, "/api/v1/tracking/stats?domain=cache.example", {
        headers: acct.headers,
      });
    const readCitations = () =>
      callApi<{ total: number }>(api, "/api/v1/citations?domain=cache.example", { headers: acct.headers });
    const first = await read();
    expect(first.data.totalVisits).toBe(1);
    expect(first.res.headers.get("cache-control")).toBe("private, max-age=120");
    expect((await readCitations()).data.total).toBe(0);

    await post("/api/v1/tracking/events", acct, { events: [ev("/2"), ev("/3", UA.chatgptUser)] });
    now += 119_000;
    expect((await read()).data.totalVisits).toBe(1);
    expect((await readCitations()).data.total).toBe(0);

    now += 2_000;
    expect((await read()).data.totalVisits).toBe(3);
    expect((await readCitations()).data.total).toBe(1);
    trackingReadCache.setClock(Date.now);
  });

  test("the cache never answers for another account or an unregistered domain", async () => {
    const acct = await createTestAccount(handle.db, { domains: ["cached2.example"] });
    expect(
      (await callApi(api, "/api/v1/tracking/stats?domain=cached2.example", { headers: acct.headers })).status,
    ).toBe(200);
    const other = await callApi(api, "/api/v1/tracking/stats?domain=cached2.example", {
      headers: bob.headers,
    });
    expect(other.status).toBe(403);
    expect(other.body.error?.code).toBe("FORBIDDEN_SCOPE");
  });
});
