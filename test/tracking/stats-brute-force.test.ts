import { describe, expect } from "vitest";
import { generateSampleVisits, seededRandom } from "@/lib/tracking/demo/sample-traffic";
import { analyzeVisit } from "@/lib/tracking/ingest/analyze-visit";
import { eventKey, trackingEventSchema } from "@/lib/tracking/ingest/event-schema";
import { pageOf } from "@/lib/tracking/ingest/record-visits";
import { trackingReadCache, utcDay } from "@/lib/tracking/reports/read-cache";
import { apiTest } from "@/test/support/fixtures";
import type { TestAccount } from "../accounts";
import type { TestApi } from "../api-server";
import { callApi } from "./helpers";

const DOMAIN = "brute.example";
const COUNT = 3000;
const test = apiTest.withAccount({ domains: [DOMAIN] });
let api: TestApi;
let acct: TestAccount;
const now = Date.now();

type RawEvent = {
  id?: string;
  domain: string;
  path: string;
  userAgent: string;
  referrer?: string;
  status: number;
  timestamp: string;
};
let raw: RawEvent[] = [];

test.beforeAll(async ({ api: _api, acct: _acct }) => {
  api = _api;
  acct = _acct;
  const rand = seededRandom(7);
  raw = generateSampleVisits({ count: COUNT, days: 85, now, seed: 42 }).map((v, i) => ({
    // Some events carry a client id, the rest are keyed by their fields.
    ...(rand() < 0.3 ? { id: `e${i}` } : {}),
    domain: rand() < 0.1 ? `www.${DOMAIN}` : DOMAIN,
    path: v.path,
    userAgent: v.userAgent,
    ...(v.referrer ? { referrer: v.referrer } : {}),
    status: v.status,
    timestamp: v.timestamp.toISOString(),
    // Addresses inside and outside published ranges (20.171.206.10 is GPTBot's), so verification counts vary.
    ...(rand() < 0.5 ? { ip: rand() < 0.5 ? "20.171.206.10" : "8.8.8.8" } : {}),
  }));
  // Send in batches of 500, then retry two batches (a client that timed out): nothing may count twice.
  const batches: RawEvent[][] = [];
  for (let i = 0; i < raw.length; i += 500) batches.push(raw.slice(i, i + 500));
  for (const events of [...batches, batches[1]!, batches[4]!]) {
    const { status } = await callApi(api, "/api/v1/tracking/events", {
      method: "POST",
      headers: acct.headers,
      json: { events },
    });
    expect(status).toBe(200);
  }
  trackingReadCache.clear();
}, 120_000);

/** The expected answers, counted one event at a time from what the test sent. */
function bruteForce() {
  const seen = new Set<string>();
  const visits: { at: Date; path: string; a: ReturnType<typeof analyzeVisit> }[] = [];
  for (const e of raw) {
    const parsed = trackingEventSchema.parse(e);
    const key = eventKey(parsed);
    if (seen.has(key)) continue;
    seen.add(key);
    const a = analyzeVisit({
      path: parsed.path,
      userAgent: parsed.userAgent,
      referrer: parsed.referrer,
      ip: parsed.ip,
    });
    visits.push({ at: parsed.timestamp, path: parsed.path, a });
  }
  const bots = visits.filter((v) => v.a.classification.kind === "bot");
  const botName = (v: (typeof visits)[number]) =>
    v.a.classification.kind === "bot" ? v.a.classification.bot : null;
  const tally = <T>(items: T[], keyOf: (t: T) => string) => {
    const m = new Map<string, number>();
    for (const it of items) m.set(keyOf(it), (m.get(keyOf(it)) ?? 0) + 1);
    return [...m.entries()].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
  };
  const since30 = new Date(`${utcDay(now, 29)}T00:00:00Z`);
  const ai = new Map(bots.map((v) => [botName(v)!.name, botName(v)!.isAIBot]));
  const stats = {
    domain: DOMAIN,
    totalVisits: bots.length,
    uniqueBots: ai.size,
    aiBotVisits: bots.filter((v) => botName(v)!.isAIBot).length,
    visitsLast30Days: bots.filter((v) => v.at >= since30).length,
    topBots: tally(bots, (v) => botName(v)!.name)
      .slice(0, 10)
      .map(([name, count]) => {
        const mine = bots.filter((v) => botName(v)!.name === name);
        const verified = mine.filter((v) => v.a.verification === "verified").length;
        const spoofed = mine.filter((v) => v.a.verification === "unverified").length;
        return {
          name,
          count,
          isAIBot: ai.get(name)!,
          // Nothing here is signed and reverse DNS is off: the published ranges verify every verified visit.
          verification: {
            verified,
            unverified: count - verified - spoofed,
            spoofed,
            verifiedBy: { signature: 0, ip: verified, rdns: 0 },
          },
        };
      }),
    topPages: tally(bots, (v) => pageOf(v.path))
      .slice(0, 10)
      .map(([url, count]) => ({ url, count })),
  };
  const citations = (days: number, limit: number) => {
    const since = new Date(`${utcDay(now, days - 1)}T00:00:00Z`);
    const cited = visits
      .filter((v) => v.a.citation && v.at >= since)
      .sort((x, y) => y.at.getTime() - x.at.getTime());
    const byBot = tally(cited, (v) => v.a.citation!.engine).map(([bot, count]) => ({ bot, count }));
    return {
      domain: DOMAIN,
      periodDays: days,
      total: cited.length,
      byBot,
      citations: cited.slice(0, limit).map((v) => ({
        bot: v.a.citation!.engine,
        path: v.path,
        timestamp: v.at.toISOString(),
        // A visitor the engine referred has no verification; a fetcher's is its address's.
        verification:
          v.a.verification === "verified"
            ? "verified"
            : v.a.verification === "unverified"
              ? "spoofed"
              : "unverified",
        verificationMethod: v.a.verification === "unknown" ? null : "ip",
      })),
    };
  };
  return { stats, citations, stored: visits.length };
}

describe("stats and citations equal a brute-force count of the events sent", () => {
  test("GET /tracking/stats", async () => {
    const expected = bruteForce();
    expect(expected.stats.totalVisits).toBeGreaterThan(2000);
    const { status, data } = await callApi(api, `/api/v1/tracking/stats?domain=${DOMAIN}`, {
      headers: acct.headers,
    });
    expect(status).toBe(200);
    expect(data).toEqual(expected.stats);
  });

  for (const [days, limit] of [
    [30, 50],
    [90, 200],
    [7, 5],
    [1, 200],
  ] as const) {
    test(`GET /citations days=${days} limit=${limit}`, async () => {
      const expected = bruteForce().citations(days, limit);
      if (days >= 30) expect(expected.total).toBeGreaterThan(50);
      const { status, data } = await callApi(
        api,
        `/api/v1/citations?domain=${DOMAIN}&days=${days}&limit=${limit}`,
        {
          headers: acct.headers,
        },
      );
      expect(status).toBe(200);
      expect(data).toEqual(expected);
      for (const c of (data as typeof expected).citations) {
        expect(c.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      }
    });
  }
});
