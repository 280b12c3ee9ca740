// The bots page's filtered reads: the period's top pages from the daily page rollup, one bot's series and
// verification from the bots' rollup, and the bot × page breakdowns read from the visits through the
// (domain, occurred_at) index, newest first and capped. Each equals the visits counted afresh, follows the
// period's bounds, and goes through an index.
import { eq, sql } from "drizzle-orm";
import { afterAll, expect } from "vitest";
import {
  getBotDetail,
  getBotPages,
  getPageBots,
  getPageCrawlSeries,
  getPeriodTopPages,
} from "@/lib/dashboard/bot-filters";
import { rowsOf } from "@/lib/db/rows";
import { domains } from "@/lib/db/schema";
import { installRangeFeeds } from "@/lib/tracking/catalog/ip-ranges/verify";
import { ingestEvents } from "@/lib/tracking/ingest/ingest-visits";
import { type PlanDb, planTest } from "@/test/support/query-plans";
import { committedListsAsWhole } from "@/test/support/range-feeds";
import { createTestAccount } from "../accounts";
import { UA } from "../tracking/helpers";

const test = planTest;
let plans: PlanDb;
test.beforeAll(({ plans: _plans }) => {
  plans = _plans;
  // OpenAI's whole list, as the service fetches it: an address outside it is spoofed.
  installRangeFeeds(committedListsAsWhole());
});
afterAll(() => installRangeFeeds({}));
const HOST = "filters.example";
const DAY = 86_400_000;

test("top pages follow the period; bot and page filters equal the visits counted afresh; reads use indexes", async () => {
  const acct = await createTestAccount(plans.db, { domains: [HOST] });
  const [domain] = await plans.db.select().from(domains).where(eq(domains.hostname, HOST));
  const now = new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  // Noon UTC `d` days ago, never in the future (today's visits are an hour old at most) and never before the day
  // began (in the first hour of a UTC day, today's visits are milliseconds after midnight).
  const at = (d: number, i = 0) =>
    new Date(
      Math.max(
        today - d * DAY + i,
        Math.min(today - d * DAY + 12 * 3_600_000 + i * 1000, now.getTime() - 3_600_000 + i),
      ),
    ).toISOString();
  let n = 0;
  const ev = (path: string, userAgent: string, time: string, referrer?: string, ip?: string) => ({
    id: `e${n++}`,
    domain: HOST,
    path,
    userAgent,
    timestamp: time,
    ...(referrer ? { referrer } : {}),
    ...(ip ? { ip } : {}),
  });
  const events = [
    // This week: GPTBot crawls /pricing three times (one with a query string; one from OpenAI's published
    // range, one from an address OpenAI does not use) and / once; Googlebot / twice.
    ev("/pricing", UA.gptbot, at(0, 1), undefined, "20.171.206.10"),
    ev("/pricing?ref=x", UA.gptbot, at(1, 2), undefined, "8.8.8.8"),
    ev("/pricing", UA.gptbot, at(2, 3)),
    ev("/", UA.gptbot, at(3, 4)),
    ev("/", UA.googlebot, at(1, 5)),
    ev("/", UA.googlebot, at(2, 6)),
    // A user-triggered fetch and a person the engine referred: not AI crawls; the fetch is a bot visit.
    ev("/pricing", UA.chatgptUser, at(1, 7)),
    ev("/pricing", UA.chrome, at(1, 8), "https://chatgpt.com/"),
    // Three weeks ago: /old is GPTBot's most crawled page then.
    ev("/old", UA.gptbot, at(20, 9)),
    ev("/old", UA.gptbot, at(21, 10)),
    ev("/old", UA.gptbot, at(22, 11)),
    ev("/old", UA.gptbot, at(22, 12)),
    ev("/old", UA.googlebot, at(20, 13)),
  ];
  expect((await ingestEvents(plans.db, acct.accountId, { events })).accepted).toBe(events.length);
  const id = domain!.id;

  // Top pages: the last 7 days have no /old; 30 days have it first.
  expect(await getPeriodTopPages(plans.db, id, 7, now)).toEqual([
    { page: "/pricing", aiCrawls: 3, verifiedAiCrawls: 1 },
    { page: "/", aiCrawls: 1, verifiedAiCrawls: 0 },
  ]);
  expect((await getPeriodTopPages(plans.db, id, 30, now)).map((p) => [p.page, p.aiCrawls])).toEqual([
    ["/old", 4],
    ["/pricing", 3],
    ["/", 1],
  ]);

  // A bot: its daily series and its pages, within the period only.
  const gpt7 = await getBotDetail(plans.db, id, "GPTBot", 7, now);
  expect(gpt7).toMatchObject({
    name: "GPTBot",
    purpose: "training",
    isAIBot: true,
    visits: 4,
    verified: 1,
    spoofed: 1,
    verifiedBy: { signature: 0, ip: 1, rdns: 0 },
  });
  expect(gpt7.series.days).toHaveLength(7);
  expect(gpt7.series.total).toBe(4);
  expect(gpt7.series.days.at(-1)).toEqual({ day: new Date(today).toISOString().slice(0, 10), value: 1 });
  expect((await getBotDetail(plans.db, id, "GPTBot", 30, now)).visits).toBe(8);
  expect(await getBotDetail(plans.db, id, "NoSuchBot", 7, now)).toMatchObject({ visits: 0, purpose: null });

  const pages7 = await getBotPages(plans.db, id, "GPTBot", 7, now);
  expect(pages7).toMatchObject({ complete: true, coversFrom: null });
  expect(pages7.rows).toEqual([
    { key: "/pricing", visits: 3, isAIBot: true },
    { key: "/", visits: 1, isAIBot: true },
  ]);
  expect((await getBotPages(plans.db, id, "GPTBot", 30, now)).rows.map((r) => [r.key, r.visits])).toEqual([
    ["/old", 4],
    ["/pricing", 3],
    ["/", 1],
  ]);

  // A page: its bots (query strings dropped; the referred person is not a bot), and its daily AI crawls.
  const pricing = await getPageBots(plans.db, id, "/pricing", 7, now);
  expect(pricing.rows).toEqual([
    { key: "GPTBot", visits: 3, isAIBot: true },
    { key: "ChatGPT-User", visits: 1, isAIBot: true },
  ]);
  const home = await getPageBots(plans.db, id, "/", 30, now);
  expect(home.rows.map((r) => [r.key, r.visits])).toEqual([
    ["Googlebot", 2],
    ["GPTBot", 1],
  ]);
  const crawls = await getPageCrawlSeries(plans.db, id, "/pricing", 7, now);
  expect(crawls.total).toBe(3);
  expect(crawls.verified).toBe(1);
  expect(crawls.days).toHaveLength(7);

  // Every figure against the visits counted afresh.
  const fresh = rowsOf<{ bot: string; page: string; n: number }>(
    await plans.db.execute(sql`
      select bot_name as bot, split_part(path, '?', 1) as page, count(*)::int as n from visits
      where domain_id = ${id} and bot_name is not null and occurred_at >= ${new Date(today - 29 * DAY).toISOString()}::timestamptz
      group by 1, 2`),
  );
  for (const bot of new Set(fresh.map((f) => f.bot))) {
    const got = await getBotPages(plans.db, id, bot, 30, now);
    const want = fresh.filter((f) => f.bot === bot).reduce((s, f) => s + f.n, 0);
    expect(
      got.rows.reduce((s, r) => s + r.visits, 0),
      bot,
    ).toBe(want);
    expect((await getBotDetail(plans.db, id, bot, 30, now)).visits, bot).toBe(want);
  }

  // The cap: reading only the newest three bot visits of the period says so and from when it covers.
  const capped = await getBotPages(plans.db, id, "GPTBot", 7, now, 3);
  expect(capped.complete).toBe(false);
  expect(capped.scanned).toBe(3);
  expect(capped.coversFrom).toBeInstanceOf(Date);
  expect(capped.rows.reduce((s, r) => s + r.visits, 0)).toBeLessThan(4);

  // Reads: the rollups through their primary keys, the breakdown through the visits' primary key (domain, time,
  // event key), each month's read backward.
  const topPlan = await plans.planOf((db) => getPeriodTopPages(db, id, 30, now), /tracking_daily_pages/);
  expect(topPlan).toMatch(/Index (Only )?Scan using tracking_daily_pages_domain_id_day_page_pk/);
  const botPlan = await plans.planOf((db) => getBotDetail(db, id, "GPTBot", 30, now), /tracking_daily_bots/);
  expect(botPlan).toMatch(/Index (Only )?Scan using tracking_daily_bots_domain_id_day_bot_name_pk/);
  const scanPlan = await plans.planOf((db) => getPageBots(db, id, "/", 30, now), /from visits/);
  expect(scanPlan).toMatch(/Index Scan Backward using visits_\d{4}_\d{2}_pkey on visits_\d{4}_\d{2} /);
  expect(scanPlan).toMatch(/Limit/);
});
