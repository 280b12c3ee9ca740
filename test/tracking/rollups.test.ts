// The rollups the ingest statement keeps (daily bots, page counts, daily citations, first citations of a page) must
// equal what the stored visits give when counted afresh, whichever form stored them: the plain insert, whose
// rollup rows the server counts while it encodes the batch, or the insert that skips stored events, whose rollup
// rows Postgres counts from what it inserted.
import { inArray, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { registerDomain } from "@/lib/accounts/domains";
import type { DbHandle } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { type NewVisit, visits } from "@/lib/db/schema";
import { seededRandom } from "@/lib/tracking/demo/sample-traffic";
import { prepareVisit, recordVisits } from "@/lib/tracking/ingest/record-visits";
import { dbTest } from "@/test/support/fixtures";
import { createTestAccount } from "../accounts";
import { UA } from "./helpers";

const test = dbTest;
let handle: DbHandle;
let domainIds: string[] = [];
test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  const acct = await createTestAccount(handle.db);
  for (const host of ["one.rollups.example", "two.rollups.example", "three.rollups.example"])
    domainIds.push((await registerDomain(handle.db, acct.accountId, host)).id);
  domainIds = domainIds.sort();
});

const DAY = 86_400_000;
const BASE = Date.UTC(2026, 10, 20);
// Query strings, an empty path, a bare "?", characters beyond ASCII and beyond the basic plane.
const PATHS = [
  "/",
  "/a",
  "/a?utm_source=x",
  "/a?b=1",
  "/b?",
  "",
  "?only=query",
  "/ü?x=1",
  "/😀",
  "/\uE000",
  "/b",
];
const AGENTS = [UA.gptbot, UA.googlebot, UA.chatgptUser, UA.perplexityUser, UA.chrome];
const REFERRERS = [
  undefined,
  "https://chatgpt.com/",
  "https://www.perplexity.ai/search/q",
  "https://example.org/",
];
// Midnight UTC on either side, and the last millisecond before 1970 (days before the epoch count down).
const TIMES = [BASE - 1, BASE, BASE + DAY - 1, BASE + DAY, -1, 0];

let keySeq = 0;
function randomVisits(rand: () => number, count: number): NewVisit[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const rows: NewVisit[] = [];
  while (rows.length < count) {
    const at = rand() < 0.1 ? pick(TIMES) : BASE - 3 * DAY + Math.floor(rand() * 5 * DAY);
    const row = prepareVisit(
      pick(domainIds),
      {
        occurredAt: new Date(at),
        path: pick(PATHS),
        userAgent: pick(AGENTS),
        referrer: pick(REFERRERS),
        ip: rand() < 0.5 ? "20.171.206.10" : "198.51.100.7",
      },
      `k${++keySeq}`,
    );
    if (!row) continue;
    // Every verdict, on any bot.
    if (row.botName) {
      row.verification = pick(["verified", "unverified", "unknown"] as const);
      row.verificationMethod =
        row.verification === "unknown" ? null : pick(["signature", "ip", "rdns"] as const);
    }
    rows.push(row);
  }
  return rows;
}

async function rows(query: ReturnType<typeof sql>) {
  return rowsOf<Record<string, unknown>>(await handle.db.execute(query)).map((r) => JSON.stringify(r));
}

const ids = () =>
  sql`(${sql.join(
    domainIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`;

describe("rollups equal the stored visits counted afresh", () => {
  test("over batches stored plain, batches holding stored events, and a batch repeating its own events", async () => {
    const rand = seededRandom(11);
    const first = randomVisits(rand, 400);
    const batches: NewVisit[][] = [
      first,
      randomVisits(rand, 400),
      // Half stored already: the plain insert fails and the batch is stored again skipping them.
      [...first.slice(0, 200), ...randomVisits(rand, 200)],
      // The same domains start with the skipping form after a batch that held duplicates.
      randomVisits(rand, 300),
      // Back to the plain form; an event repeated within the batch counts once.
      (() => {
        const b = randomVisits(rand, 300);
        return [...b, ...b.slice(0, 40)];
      })(),
    ];
    const accepted: number[] = [];
    for (const batch of batches) accepted.push(await recordVisits(handle.db, batch));
    expect(accepted).toEqual([400, 400, 200, 300, 300]);
    const stored = await handle.db
      .select({ key: visits.eventKey })
      .from(visits)
      .where(inArray(visits.domainId, domainIds));
    expect(stored).toHaveLength(1600);

    const day = sql`(occurred_at at time zone 'UTC')::date`;
    expect(
      await rows(sql`select domain_id, day, bot_name, bot_purpose, is_ai_bot, visits::int, verified_visits::int,
          spoofed_visits::int, signature_verified_visits::int, ip_verified_visits::int, rdns_verified_visits::int
        from tracking_daily_bots where domain_id in ${ids()} order by 1, 2, 3`),
    ).toEqual(
      await rows(sql`select domain_id, ${day} as day, bot_name, min(a.bot_purpose) as bot_purpose,
          bool_or(is_ai_bot) as is_ai_bot, count(*)::int as visits,
          (count(*) filter (where verification = 'verified'))::int as verified_visits,
          (count(*) filter (where verification = 'unverified'))::int as spoofed_visits,
          (count(*) filter (where verification = 'verified' and verification_method = 'signature'))::int
            as signature_verified_visits,
          (count(*) filter (where verification = 'verified' and verification_method = 'ip'))::int
            as ip_verified_visits,
          (count(*) filter (where verification = 'verified' and verification_method = 'rdns'))::int
            as rdns_verified_visits
        from visits v join visit_agents a on a.id = v.agent_id
        where domain_id in ${ids()} and bot_name is not null group by 1, 2, 3 order by 1, 2, 3`),
    );
    expect(
      await rows(sql`select domain_id, path, visits::int from tracking_page_counts
        where domain_id in ${ids()} order by 1, 2`),
    ).toEqual(
      await rows(sql`select domain_id, split_part(path, '?', 1) as path, count(*)::int as visits from visits
        where domain_id in ${ids()} and bot_name is not null group by 1, 2 order by 1, 2`),
    );
    expect(
      await rows(sql`select domain_id, day, engine, citations::int from tracking_daily_citations
        where domain_id in ${ids()} order by 1, 2, 3`),
    ).toEqual(
      await rows(sql`select domain_id, ${day} as day, citation_engine as engine, count(*)::int as citations
        from visits where domain_id in ${ids()} and citation_engine is not null group by 1, 2, 3 order by 1, 2, 3`),
    );
    // A page's first citation of a day keeps the time of the batch that first cited it: a later batch holding an
    // earlier citation of that page and day (events arrive out of order) finds the row taken. So the expectation
    // follows the batches in order, each with the visits it stored.
    const seen = new Set<string>();
    const firstCited = new Map<string, number>();
    for (const batch of batches) {
      const firstsOfBatch = new Map<string, number>();
      for (const v of batch) {
        const key = `${v.domainId} ${v.eventKey}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (!v.citationEngine) continue;
        const ms = (v.occurredAt as Date).getTime();
        const cited = JSON.stringify({
          domain_id: v.domainId,
          day: new Date(Math.floor(ms / DAY) * DAY).toISOString().slice(0, 10),
          engine: v.citationEngine,
          page: v.path.split("?")[0],
        });
        firstsOfBatch.set(cited, Math.min(ms, firstsOfBatch.get(cited) ?? ms));
      }
      for (const [cited, ms] of firstsOfBatch) if (!firstCited.has(cited)) firstCited.set(cited, ms);
    }
    const citedRows = rowsOf<{
      domain_id: string;
      day: string;
      engine: string;
      page: string;
      first_ms: number;
    }>(
      await handle.db.execute(sql`select domain_id, day::text as day, engine, page,
          (extract(epoch from first_cited_at) * 1000)::float8 as first_ms
        from tracking_cited_pages where domain_id in ${ids()}`),
    );
    expect(new Map(citedRows.map(({ first_ms, ...k }) => [JSON.stringify(k), Number(first_ms)]))).toEqual(
      firstCited,
    );
    // Out-of-order citations happened: some first citation is later than the day's earliest stored citation.
    expect(
      rowsOf<{ n: number }>(
        await handle.db.execute(sql`select count(*)::int as n from tracking_cited_pages c
          where domain_id in ${ids()} and first_cited_at > (select min(occurred_at) from visits v
            where v.domain_id = c.domain_id and (v.occurred_at at time zone 'UTC')::date = c.day
              and v.citation_engine = c.engine and split_part(v.path, '?', 1) = c.page)`),
      )[0]!.n,
    ).toBeGreaterThan(0);
    // The traffic reached what the comparison needs: several domains, days (before 1970 too), bots, citations.
    const shape = rowsOf<{ domains: number; days: number; bots: number; engines: number; early: number }>(
      await handle.db.execute(sql`select count(distinct domain_id)::int as domains,
          count(distinct ${day})::int as days, count(distinct bot_name)::int as bots,
          count(distinct citation_engine)::int as engines,
          (count(*) filter (where occurred_at < '1970-01-01'))::int as early
        from visits where domain_id in ${ids()}`),
    )[0]!;
    expect(shape.domains).toBe(3);
    expect(shape.days).toBeGreaterThanOrEqual(7);
    expect(shape.bots).toBeGreaterThanOrEqual(3);
    expect(shape.engines).toBeGreaterThanOrEqual(2);
    expect(shape.early).toBeGreaterThan(0);
  });
});
