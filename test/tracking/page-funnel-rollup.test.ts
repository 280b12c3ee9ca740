// The page funnel's daily rollups: kept by both forms of the ingest statement (every visit new; stored events
// skipped), settled with reverse DNS, equal to the visits counted afresh, and read through their primary keys.
import { eq, sql } from "drizzle-orm";
import { afterEach, expect } from "vitest";
import type { Db } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { domains } from "@/lib/db/schema";
import { getPageFunnel } from "@/lib/funnel/page-funnel";
import { createReverseDnsVerifier, type ReverseDnsResolver } from "@/lib/tracking/catalog/reverse-dns";
import { ingestEvents } from "@/lib/tracking/ingest/ingest-visits";
import { reverseDnsIdle, setIngestReverseDnsVerifier } from "@/lib/tracking/ingest/reverse-dns-step";
import { trackingReadCache } from "@/lib/tracking/reports/read-cache";
import { type PlanDb, planTest } from "@/test/support/query-plans";
import { createTestAccount } from "../accounts";
import { UA } from "./helpers";

const test = planTest;
let plans: PlanDb;
test.beforeAll(({ plans: _plans }) => {
  plans = _plans;
});
afterEach(() => setIngestReverseDnsVerifier(undefined));

const AMAZONBOT =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36";
const GENUINE = "3.224.220.101";
const IMPOSTOR = "203.0.113.50";

const resolver: ReverseDnsResolver = {
  async reverse(ip) {
    return ip === GENUINE
      ? ["3-224-220-101.crawl.amazonbot.amazon"]
      : ["crawl.amazonbot.amazon.attacker.example"];
  },
  async resolve(name) {
    return name === "3-224-220-101.crawl.amazonbot.amazon" ? [GENUINE] : [IMPOSTOR];
  },
};

/** The rollups, and the same figures counted afresh from the visits. */
async function compare(db: Db, domainId: string) {
  const q = async (text: ReturnType<typeof sql>) => rowsOf<Record<string, string>>(await db.execute(text));
  const rollup = await q(sql`
    select day::text, page, ai_crawls::text as n, verified_ai_crawls::text as verified, first_crawl_at::text as first
    from tracking_daily_pages where domain_id = ${domainId} order by 1, 2`);
  const fresh = await q(sql`
    select (occurred_at at time zone 'UTC')::date::text as day, split_part(path, '?', 1) collate "C" as page,
           count(*)::text as n, count(*) filter (where verification = 'verified')::text as verified,
           min(occurred_at)::text as first
    from visits where domain_id = ${domainId} and is_ai_bot and citation_engine is null group by 1, 2 order by 1, 2`);
  const rollupCites = await q(sql`
    select day::text, page, engine, assistant, citations::text as n, first_cited_at::text as first
    from tracking_daily_page_citations where domain_id = ${domainId} order by 1, 2, 3, 4`);
  const freshCites = await q(sql`
    select (occurred_at at time zone 'UTC')::date::text as day, split_part(path, '?', 1) collate "C" as page,
           citation_engine as engine, coalesce(bot_name, '') collate "C" as assistant, count(*)::text as n,
           min(occurred_at)::text as first
    from visits where domain_id = ${domainId} and citation_engine is not null group by 1, 2, 3, 4 order by 1, 2, 3, 4`);
  return { rollup, fresh, rollupCites, freshCites };
}

test("both ingest forms and reverse DNS keep the rollups equal to the visits; reads go through the keys", async () => {
  const acct = await createTestAccount(plans.db, { domains: ["rollup.example"] });
  const [domain] = await plans.db.select().from(domains).where(eq(domains.hostname, "rollup.example"));
  setIngestReverseDnsVerifier(createReverseDnsVerifier({ resolver, timeoutMs: 5_000 }));
  // Midnight UTC three days ago: the visits an hour apart fall on the same day whatever the time of the run.
  const base = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 3 * 86_400_000;
  const at = (h: number) => new Date(base + h * 3_600_000).toISOString();
  const batch = [
    { id: "a1", domain: "rollup.example", path: "/a", userAgent: AMAZONBOT, ip: GENUINE, timestamp: at(1) },
    {
      id: "a2",
      domain: "rollup.example",
      path: "/a?x=1",
      userAgent: AMAZONBOT,
      ip: IMPOSTOR,
      timestamp: at(2),
    },
    { id: "a3", domain: "rollup.example", path: "/b", userAgent: UA.gptbot, timestamp: at(30) },
    { id: "a4", domain: "rollup.example", path: "/a", userAgent: UA.chatgptUser, timestamp: at(40) },
    {
      id: "a5",
      domain: "rollup.example",
      path: "/a",
      userAgent: UA.chrome,
      referrer: "https://chatgpt.com/",
      timestamp: at(41),
    },
    { id: "a6", domain: "rollup.example", path: "/c", userAgent: UA.googlebot, timestamp: at(42) },
  ];
  // Every visit new: the plain insert.
  expect((await ingestEvents(plans.db, acct.accountId, { events: batch })).accepted).toBe(6);
  await reverseDnsIdle();
  let c = await compare(plans.db, domain!.id);
  expect(c.rollup).toEqual(c.fresh);
  expect(c.rollupCites).toEqual(c.freshCites);
  // Settled by reverse DNS after the batch was stored: one of the two Amazonbot crawls of /a is verified.
  expect(c.rollup.find((r) => r.page === "/a")).toMatchObject({ n: "2", verified: "1" });
  expect(c.rollupCites.map((r) => [r.page, r.engine, r.assistant, r.n])).toEqual([
    ["/a", "ChatGPT", "", "1"],
    ["/a", "ChatGPT", "ChatGPT-User", "1"],
  ]);

  // The same batch again with new visits: stored events are skipped, only the new ones counted.
  await ingestEvents(plans.db, acct.accountId, {
    events: [
      ...batch,
      { id: "b1", domain: "rollup.example", path: "/b", userAgent: UA.gptbot, timestamp: at(0) },
      {
        id: "b2",
        domain: "rollup.example",
        path: "/b",
        userAgent: UA.chrome,
        referrer: "https://www.perplexity.ai/",
        timestamp: at(50),
      },
    ],
  });
  await reverseDnsIdle();
  c = await compare(plans.db, domain!.id);
  expect(c.rollup).toEqual(c.fresh);
  expect(c.rollupCites).toEqual(c.freshCites);
  expect(c.rollup.filter((r) => r.page === "/b").reduce((s, r) => s + Number(r.n), 0)).toBe(2);

  // The reads: each rollup through its primary key (domain, then day), never a scan of the table or the visits.
  for (const [table, index] of [
    ["tracking_daily_pages", "tracking_daily_pages_domain_id_day_page_pk"],
    ["tracking_daily_page_citations", "tracking_daily_page_citations_pk"],
  ] as const) {
    trackingReadCache.clear();
    const plan = await plans.planOf(
      (db) =>
        getPageFunnel(db, {}, acct.accountId, {
          domain: "rollup.example",
          days: 30,
          limit: 50,
          sort: "crawls",
        }),
      new RegExp(`from ${table}\\b`),
    );
    expect(plan).toMatch(new RegExp(`Index (Only )?Scan using ${index} on ${table}`));
    expect(plan).not.toMatch(/visits/);
  }
});
