import { eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import type { Db } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import * as schema from "@/lib/db/schema";
import { prepareVisit, recordVisits } from "@/lib/tracking/ingest/record-visits";
import { getCitations } from "@/lib/tracking/reports/citations-query";
import { trackingReadCache } from "@/lib/tracking/reports/read-cache";
import { getBotStats } from "@/lib/tracking/reports/stats";
import { listBotVisits } from "@/lib/tracking/reports/visits-list";
import { createTestAccount } from "../accounts";
import { type PlanDb, planTest } from "../support/query-plans";
import { UA } from "./helpers";

// The reads that list a domain's newest visits and citations must walk a time index in its order: a sort there reads
// every visit of the domain (millions) to answer a page of 50. The statements are the ones the functions send,
// captured through a query logger, then explained with sequential and bitmap scans ruled out.
const test = planTest;
let plans: PlanDb;
test.beforeAll(({ plans: _plans }) => {
  plans = _plans;
});

/** The plan of the one statement on the visits table that `read` sends (the read cache cleared first). */
function visitsPlan(read: (db: Db) => Promise<unknown>): Promise<string> {
  trackingReadCache.clear();
  return plans.planOf(read, /from "visits"/);
}

/** The id of a registered domain. */
async function domainId(hostname: string): Promise<string> {
  const [row] = await plans.db.select().from(schema.domains).where(eq(schema.domains.hostname, hostname));
  return row!.id;
}

test("the visits list and the citations list walk their time index backward, without sorting", async () => {
  const acct = await createTestAccount(plans.db, { domains: ["plans.example"] });
  const domain = { id: await domainId("plans.example") };
  const now = Date.now();
  const rows = Array.from({ length: 60 }, (_, i) =>
    prepareVisit(
      domain.id,
      {
        occurredAt: new Date(now - i * 60_000),
        path: `/p${i}`,
        userAgent: i % 2 ? UA.gptbot : UA.chrome,
        referrer: i % 2 ? undefined : "https://chatgpt.com/",
      },
      `id:plan-${i}`,
    ),
  ).filter((r) => r !== null);
  await recordVisits(plans.db, rows);

  const first = await listBotVisits(plans.db, acct.accountId, { domain: "plans.example", limit: 5 });
  expect(first.nextCursor).not.toBeNull();
  for (const q of [
    { domain: "plans.example", limit: 5 },
    // The next page: the cursor bounds the scan (an index condition), it does not filter it.
    { domain: "plans.example", limit: 5, cursor: first.nextCursor! },
  ]) {
    const plan = await visitsPlan((db) => listBotVisits(db, acct.accountId, q));
    // The visits' primary key (domain_id, occurred_at, event_key) is their time index.
    expectMonthsWalkedBackward(plan, "pkey");
    // Each listed visit's agent (its purpose) is found by its key, under the limit: the page's visits only.
    expect(plan).toMatch(
      /Limit[\s\S]*Nested Loop Left Join[\s\S]*Index Scan using visit_agents_pkey on visit_agents/,
    );
    if (q.cursor)
      expect(plan).toMatch(
        /Index Cond: .*occurred_at, visits_\w+\.event_key\) < |Index Cond: .*occurred_at, event_key\) < /,
      );
  }

  const citations = await visitsPlan((db) =>
    getCitations(db, acct.accountId, { domain: "plans.example", days: 30, limit: 50 }),
  );
  expectMonthsWalkedBackward(citations, "citations_idx");
  // The period's bound leaves the months before it out of the plan.
  expect(citations).not.toMatch(new RegExp(`on ${monthPartition(-3)} `));
});

/** The visits partition of the UTC month `offset` months from this one: visits_2026_11. */
function monthPartition(offset: number): string {
  const d = new Date();
  const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1));
  return `visits_${m.getUTCFullYear()}_${String(m.getUTCMonth() + 1).padStart(2, "0")}`;
}

/**
 * The visits are partitioned by month: a read in time order walks each month's index backward and merges the
 * months in order (a Merge Append, whose "Sort Key" is the order it keeps, not a sort); no month is sorted or
 * scanned whole.
 */
function expectMonthsWalkedBackward(plan: string, index: string): void {
  const scans = plan.split("\n").filter((line) => / Scan /.test(line) && !/ on visit_agents\b/.test(line));
  expect(scans.length).toBeGreaterThan(0);
  for (const scan of scans)
    expect(scan).toMatch(new RegExp(`Index Scan Backward using visits_\\w+_${index} on `));
  expect(plan).toMatch(new RegExp(`using ${monthPartition(0)}_${index} on ${monthPartition(0)} `));
  expect(plan).not.toMatch(/(^|->\s+)(Incremental )?Sort\b/m);
}

test("the stats read takes a domain's top pages off the top of the page counts' ranks, sorting only the pages that can be among them", async () => {
  const acct = await createTestAccount(plans.db, { domains: ["pages.example"] });
  const domain = { id: await domainId("pages.example") };
  // 30 pages, page i visited i + 1 times, and page 19 once more: it ties with page 20 at the top's edge (21 visits),
  // and the tie goes by path.
  const rows = Array.from({ length: 30 }, (_, i) => Array.from({ length: i + 1 }, (_, n) => ({ i, n })))
    .flat()
    .concat([{ i: 19, n: 100 }])
    .map(({ i, n }) =>
      prepareVisit(
        domain.id,
        { occurredAt: new Date(Date.now() - 60_000), path: `/page-${i}`, userAgent: UA.gptbot },
        `id:top-${i}-${n}`,
      ),
    )
    .filter((r) => r !== null);
  await recordVisits(plans.db, rows);

  trackingReadCache.clear();
  let topPages: string[] = [];
  const plan = await plans.planOf(
    async (db) => {
      const stats = await getBotStats(db, acct.accountId, "pages.example");
      topPages = stats.topPages.map((p) => `${p.url} ${p.count}`);
    },
    /tracking_page_counts/,
    { analyze: true },
  );
  expect(topPages).toEqual([
    ...[29, 28, 27, 26, 25, 24, 23, 22, 21].map((i) => `/page-${i} ${i + 1}`),
    "/page-19 21",
  ]);
  // The tenth page's rank comes off the top of the ranks' index (ten entries read); the pages of that rank or
  // above come off the index by an index condition: the fifteen pages with 16 to 30 visits (rank 2, the tenth's:
  // 16 to 63), not the thirty of the domain. Only those are sorted.
  expect(plan).toMatch(
    /Limit \(actual rows=1(\.00)? loops=1\)\n\s*->\s+Index (Only )?Scan using tracking_page_counts_top_idx on tracking_page_counts( \w+)? \(actual rows=10(\.00)? loops=1\)/,
  );
  expect(plan).toMatch(
    /Index Scan using tracking_page_counts_top_idx on tracking_page_counts( \w+)? \(actual rows=15(\.00)? loops=1\)\n\s*Index Cond: \(\(domain_id = '[^']+'::uuid\) AND \(visits_rank >= /,
  );
});

test("a page after the first continues exactly where the cursor points, ties on the time broken by event key", async () => {
  const acct = await createTestAccount(plans.db, { domains: ["ties.example"] });
  const domain = { id: await domainId("ties.example") };
  // Twelve visits at three instants (four each): pages of five cross the ties.
  const at = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2].map((m) => new Date(Date.UTC(2026, 10, 20, 12, m)));
  await recordVisits(
    plans.db,
    at.map(
      (occurredAt, i) =>
        prepareVisit(domain.id, { occurredAt, path: `/t${i}`, userAgent: UA.gptbot }, `id:tie-${i}`)!,
    ),
  );
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 5; page++) {
    const res = await listBotVisits(plans.db, acct.accountId, {
      domain: "ties.example",
      limit: 5,
      from: new Date(Date.UTC(2026, 10, 20)),
      ...(cursor ? { cursor } : {}),
    });
    seen.push(...res.visits.map((v) => v.path));
    if (!res.nextCursor) break;
    cursor = res.nextCursor;
  }
  const stored = rowsOf<{ path: string }>(
    await plans.db.execute(
      sql`select path from visits where domain_id = ${domain.id} order by occurred_at desc, event_key desc`,
    ),
  ).map((r) => r.path);
  expect(stored).toHaveLength(12);
  expect(seen).toEqual(stored);
});

test("a visit's id is its time and event key: two visits with one client id at two times have two ids, and a read again gives the same ones", async () => {
  const acct = await createTestAccount(plans.db, { domains: ["ids.example"] });
  const domain = { id: await domainId("ids.example") };
  const [earlier, later] = [Date.UTC(2026, 10, 21, 9), Date.UTC(2026, 10, 21, 10)];
  const times = [earlier, later];
  await recordVisits(
    plans.db,
    times.map(
      (t) =>
        prepareVisit(domain.id, { occurredAt: new Date(t), path: "/same", userAgent: UA.gptbot }, "id:e-1")!,
    ),
  );
  const read = () =>
    listBotVisits(plans.db, acct.accountId, { domain: "ids.example", limit: 10, from: new Date(earlier) });
  const first = await read();
  expect(first.visits.map((v) => v.timestamp)).toEqual(
    [later, earlier].map((t) => new Date(t).toISOString()),
  );
  const ids = first.visits.map((v) => v.id);
  expect(new Set(ids).size).toBe(2);
  expect((await read()).visits.map((v) => v.id)).toEqual(ids);
  // The id of a visit lists the visits after it: the older one.
  const after = await listBotVisits(plans.db, acct.accountId, {
    domain: "ids.example",
    limit: 10,
    from: new Date(earlier),
    cursor: ids[0]!,
  });
  expect(after.visits.map((v) => v.id)).toEqual([ids[1]]);
});

test("a cursor holding a time Postgres cannot store, or a key no visit can have, is refused as a bad cursor, before any query", async () => {
  const acct = await createTestAccount(plans.db, { domains: ["cursors.example"] });
  for (const at of [
    "-271821-04-20T00:00:00.000Z",
    "+275760-09-13T00:00:00.000Z",
    "-000001-01-01T00:00:00.000Z",
  ]) {
    const cursor = Buffer.from(`${at}|5`).toString("base64url");
    await expect(
      listBotVisits(plans.db, acct.accountId, { domain: "cursors.example", limit: 5, cursor }),
    ).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
  }
  // A good time with a key no visit has: an id (the cursors' earlier form), a NUL, a key past any event's length.
  for (const key of ["5", "id:a\0b", `id:${"x".repeat(300)}`]) {
    const cursor = Buffer.from(`2026-11-20T12:00:00.000Z|${key}`).toString("base64url");
    await expect(
      listBotVisits(plans.db, acct.accountId, { domain: "cursors.example", limit: 5, cursor }),
    ).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
  }
  // A key that is one: a page.
  const cursor = Buffer.from("2026-11-20T12:00:00.000Z|id:some-event").toString("base64url");
  await expect(
    listBotVisits(plans.db, acct.accountId, { domain: "cursors.example", limit: 5, cursor }),
  ).resolves.toMatchObject({ visits: [], nextCursor: null });
});
