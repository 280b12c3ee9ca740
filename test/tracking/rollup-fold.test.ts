// Ingest appends what a batch adds to the rollups as pending increments; folds add them to the rollups. Whatever the
// order of batches, verdicts, folds and reads, the rollups a read sees must equal the stored visits counted afresh.
import { eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { registerDomain } from "@/lib/accounts/domains";
import type { Db } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { domains, type NewVisit } from "@/lib/db/schema";
import { ingestEvents } from "@/lib/tracking/ingest/ingest-visits";
import { prepareVisit, recordVisits } from "@/lib/tracking/ingest/record-visits";
import { storeVerdicts } from "@/lib/tracking/ingest/verdict-statement";
import { trackingReadCache } from "@/lib/tracking/reports/read-cache";
import { getBotStats } from "@/lib/tracking/reports/stats";
import { foldAllPendingRollups, foldPendingRollups } from "@/lib/tracking/rollups/fold";
import { dbTest } from "@/test/support/fixtures";
import { createTestAccount } from "../accounts";
import { UA } from "./helpers";

const test = dbTest;
const DAY = 86_400_000;
const BASE = Date.UTC(2026, 10, 20, 12);

let seq = 0;
/** `count` visits over three days: GPTBot crawls (undecided), ChatGPT-referred citations and ChatGPT-User fetches. */
function visitsOf(domainId: string, count: number): NewVisit[] {
  return Array.from({ length: count }, (_, i) => {
    const kind = i % 3;
    return prepareVisit(
      domainId,
      {
        occurredAt: new Date(BASE - (i % 3) * DAY + i * 1000),
        path: `/page-${i % 4}?q=${i}`,
        userAgent: kind === 0 ? UA.gptbot : kind === 1 ? UA.chrome : UA.chatgptUser,
        referrer: kind === 1 ? "https://chatgpt.com/" : undefined,
      },
      `id:fold-${++seq}`,
    );
  }).filter((v): v is NewVisit => v !== null);
}

async function pendingOf(db: Db, domainId: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from tracking_rollup_pending where domain_id = ${domainId}`,
    ),
  );
  return row!.n;
}

const json = async (db: Db, query: ReturnType<typeof sql>) =>
  rowsOf<Record<string, unknown>>(await db.execute(query)).map((r) => JSON.stringify(r));

/** Every rollup of the domain, and the same figures counted afresh from its visits. */
async function rollupsAndVisits(db: Db, domainId: string) {
  const day = sql`(occurred_at at time zone 'UTC')::date`;
  const page = sql`split_part(path, '?', 1) collate "C"`;
  return {
    rollups: {
      bots: await json(
        db,
        sql`select day, bot_name, bot_purpose, is_ai_bot, visits::int, verified_visits::int, spoofed_visits::int,
                   signature_verified_visits::int, ip_verified_visits::int, rdns_verified_visits::int
            from tracking_daily_bots where domain_id = ${domainId} order by 1, 2`,
      ),
      pages: await json(
        db,
        sql`select path, visits::int from tracking_page_counts where domain_id = ${domainId} order by 1`,
      ),
      cites: await json(
        db,
        sql`select day, engine, citations::int from tracking_daily_citations where domain_id = ${domainId}
            order by 1, 2`,
      ),
      crawls: await json(
        db,
        sql`select day, page, ai_crawls::int, verified_ai_crawls::int, first_crawl_at::text
            from tracking_daily_pages where domain_id = ${domainId} order by 1, 2`,
      ),
      pageCites: await json(
        db,
        sql`select day, page, engine, assistant, citations::int, first_cited_at::text
            from tracking_daily_page_citations where domain_id = ${domainId} order by 1, 2, 3, 4`,
      ),
    },
    visits: {
      bots: await json(
        db,
        sql`select ${day} as day, bot_name, min(a.bot_purpose) as bot_purpose, bool_or(is_ai_bot) as is_ai_bot,
                   count(*)::int as visits, (count(*) filter (where verification = 'verified'))::int as verified_visits,
                   (count(*) filter (where verification = 'unverified'))::int as spoofed_visits,
                   (count(*) filter (where verification = 'verified' and verification_method = 'signature'))::int
                     as signature_verified_visits,
                   (count(*) filter (where verification = 'verified' and verification_method = 'ip'))::int
                     as ip_verified_visits,
                   (count(*) filter (where verification = 'verified' and verification_method = 'rdns'))::int
                     as rdns_verified_visits
            from visits v join visit_agents a on a.id = v.agent_id
            where domain_id = ${domainId} and bot_name is not null group by 1, 2 order by 1, 2`,
      ),
      pages: await json(
        db,
        sql`select ${page} as path, count(*)::int as visits from visits
            where domain_id = ${domainId} and bot_name is not null group by 1 order by 1`,
      ),
      cites: await json(
        db,
        sql`select ${day} as day, citation_engine as engine, count(*)::int as citations from visits
            where domain_id = ${domainId} and citation_engine is not null group by 1, 2 order by 1, 2`,
      ),
      crawls: await json(
        db,
        sql`select ${day} as day, ${page} as page, count(*)::int as ai_crawls,
                   (count(*) filter (where verification = 'verified'))::int as verified_ai_crawls,
                   min(occurred_at)::text as first_crawl_at
            from visits where domain_id = ${domainId} and is_ai_bot and citation_engine is null
            group by 1, 2 order by 1, 2`,
      ),
      pageCites: await json(
        db,
        sql`select ${day} as day, ${page} as page, citation_engine collate "C" as engine,
                   coalesce(bot_name, '') collate "C" as assistant, count(*)::int as citations,
                   min(occurred_at)::text as first_cited_at
            from visits where domain_id = ${domainId} and citation_engine is not null
            group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
      ),
    },
  };
}

async function newDomain(db: Db, hostname: string) {
  const acct = await createTestAccount(db);
  const domain = await registerDomain(db, acct.accountId, hostname);
  return { accountId: acct.accountId, id: domain.id, hostname };
}

test("a batch's additions wait as increments until a read folds them; the read counts every visit stored before it", async ({
  handle,
}) => {
  const db = handle.db;
  const d = await newDomain(db, "read.fold.example");
  for (let b = 0; b < 3; b++) expect(await recordVisits(db, visitsOf(d.id, 30))).toBe(30);
  // Appended, not yet in any rollup.
  expect(await pendingOf(db, d.id)).toBeGreaterThan(0);
  const before = await rollupsAndVisits(db, d.id);
  expect(before.rollups.bots).toEqual([]);
  expect(before.visits.bots).not.toEqual([]);
  const [botIncrements] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from tracking_rollup_pending
                         where domain_id = ${d.id} and rollup = 1`),
  );
  // Each batch appended one increment per bot and day: GPTBot's and ChatGPT-User's.
  expect(botIncrements!.n).toBe(6);

  trackingReadCache.clear();
  const stats = await getBotStats(db, d.accountId, d.hostname);
  // 90 visits: 60 bots (GPTBot and ChatGPT-User) and 30 people referred by ChatGPT (citations, not bot visits).
  expect(stats.totalVisits).toBe(60);
  expect(await pendingOf(db, d.id)).toBe(0);
  const after = await rollupsAndVisits(db, d.id);
  expect(after.rollups).toEqual(after.visits);
  // Three batches' increments of one rollup row became one row.
  expect(after.rollups.bots.length).toBe(2);
});

test("folds of one domain running beside its batches add every increment once", async ({ handle }) => {
  const db = handle.db;
  const d = await newDomain(db, "race.fold.example");
  const work: Promise<unknown>[] = [];
  for (let i = 0; i < 8; i++) {
    work.push(recordVisits(db, visitsOf(d.id, 40)));
    work.push(foldPendingRollups(db, [d.id]));
  }
  await Promise.all(work);
  await foldPendingRollups(db, [d.id]);
  expect(await pendingOf(db, d.id)).toBe(0);
  const { rollups, visits } = await rollupsAndVisits(db, d.id);
  expect(rollups).toEqual(visits);
  expect(JSON.parse(rollups.pages[0]!).visits).toBeGreaterThan(0);
});

test("a verdict reached later moves the counts, whether its visits' increments were folded already or not", async ({
  handle,
}) => {
  const db = handle.db;
  const d = await newDomain(db, "verdict.fold.example");
  const undecided = async () =>
    rowsOf<{ occurred_at: string; event_key: string }>(
      await db.execute(sql`select occurred_at::text, event_key from visits
                           where domain_id = ${d.id} and verification = 'unknown' order by event_key`),
    );
  // Folded before the verdict: the verdict's change alone updates the rows.
  await recordVisits(db, visitsOf(d.id, 12));
  await foldPendingRollups(db, [d.id]);
  const first = await undecided();
  expect(first.length).toBeGreaterThan(2);
  await storeVerdicts(
    db,
    first.map((v, i) => [d.id, v.occurred_at, v.event_key, i % 2 === 0 ? "verified" : "unverified"]),
    "rdns",
  );
  // Not folded yet: the visits' increments and the verdict's change fold together.
  await recordVisits(db, visitsOf(d.id, 12));
  const second = await undecided();
  await storeVerdicts(
    db,
    second.map((v) => [d.id, v.occurred_at, v.event_key, "verified"]),
    "signature",
  );
  await foldPendingRollups(db, [d.id]);
  const { rollups, visits } = await rollupsAndVisits(db, d.id);
  expect(rollups).toEqual(visits);
  const bots = rollups.bots.map((r) => JSON.parse(r) as Record<string, number>);
  expect(bots.reduce((n, r) => n + r.rdns_verified_visits!, 0)).toBeGreaterThan(0);
  expect(bots.reduce((n, r) => n + r.signature_verified_visits!, 0)).toBeGreaterThan(0);
  expect(bots.reduce((n, r) => n + r.spoofed_visits!, 0)).toBeGreaterThan(0);
});

test("a removed domain's pending increments go with it, and a fold never writes rollups for a domain that is gone", async ({
  handle,
}) => {
  const db = handle.db;
  const d = await newDomain(db, "removed.fold.example");
  await recordVisits(db, visitsOf(d.id, 9));
  expect(await pendingOf(db, d.id)).toBeGreaterThan(0);
  await db.delete(domains).where(eq(domains.id, d.id));
  expect(await pendingOf(db, d.id)).toBe(0);
  // Increments of a domain removed after they were appended (as a removal racing a fold could leave them).
  const ghost = "00000000-0000-4000-8000-00000000f01d";
  await db.execute(sql`insert into tracking_rollup_pending (domain_id, rollup, day, name, detail, flag, n1, n2, n3,
                                                            n4, n5, n6)
                       values (${ghost}, 1, '2026-11-20', 'GPTBot', 'training', true, 3, 0, 0, 0, 0, 0)`);
  expect(await foldPendingRollups(db, [ghost])).toBe(1);
  expect(await pendingOf(db, ghost)).toBe(0);
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from tracking_daily_bots where domain_id = ${ghost}`),
  );
  expect(row!.n).toBe(0);
});

test("the ingesting process folds its domains' increments within a second or so; a sweep folds every domain's", async ({
  handle,
}) => {
  const db = handle.db;
  const d = await newDomain(db, "timer.fold.example");
  const result = await ingestEvents(db, d.accountId, {
    events: [0, 1, 2].map((i) => ({
      domain: d.hostname,
      path: `/t${i}`,
      userAgent: UA.gptbot,
      timestamp: new Date(Date.now() - i * 1000).toISOString(),
    })),
  });
  expect(result.accepted).toBe(3);
  const deadline = Date.now() + 10_000;
  while ((await pendingOf(db, d.id)) > 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  expect(await pendingOf(db, d.id)).toBe(0);
  expect((await rollupsAndVisits(db, d.id)).rollups.pages).toHaveLength(3);

  // What no process folded (recordVisits schedules nothing): the sweep folds it for every domain.
  const others = [await newDomain(db, "sweep-a.fold.example"), await newDomain(db, "sweep-b.fold.example")];
  for (const o of others) await recordVisits(db, visitsOf(o.id, 6));
  expect(await foldAllPendingRollups(db)).toBeGreaterThan(0);
  for (const o of others) {
    expect(await pendingOf(db, o.id)).toBe(0);
    const { rollups, visits } = await rollupsAndVisits(db, o.id);
    expect(rollups).toEqual(visits);
  }
});
