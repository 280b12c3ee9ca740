// A batch adds to rollup rows that exist already: each of those updates must be heap-only (HOT), writing no index
// entry, which takes room on the row's page (the rollups' fillfactor) and no indexed column changed by the update
// (the page counts' index holds a rank of the count, not the count). Counted in the updating transaction itself.
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { registerDomain } from "@/lib/accounts/domains";
import type { DbHandle, Tx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import type { NewVisit } from "@/lib/db/schema";
import { prepareVisit, recordVisits } from "@/lib/tracking/ingest/record-visits";
import { dbTest as test } from "@/test/support/fixtures";
import { createTestAccount } from "../accounts";
import { UA } from "./helpers";

let handle: DbHandle;
test.beforeAll(({ handle: fileDb }) => {
  handle = fileDb;
});

const DAY = 86_400_000;
const DAYS = 400;

const PAGES = 100;
const page = (d: number) => `/article-${d % PAGES}`;

/** One GPTBot crawl and one ChatGPT citation on each of DAYS days, `round` minutes past noon, over PAGES pages. */
function visits(domainId: string, round: number): NewVisit[] {
  const noon = Date.UTC(2025, 0, 1, 12);
  return Array.from({ length: DAYS }, (_, d) => [
    prepareVisit(
      domainId,
      { occurredAt: new Date(noon + d * DAY + round * 60_000), path: page(d), userAgent: UA.gptbot },
      `id:crawl-${round}-${d}`,
    )!,
    prepareVisit(
      domainId,
      {
        occurredAt: new Date(noon + d * DAY + round * 60_000),
        path: page(d),
        userAgent: UA.chrome,
        referrer: "https://chatgpt.com/",
      },
      `id:cite-${round}-${d}`,
    )!,
  ]).flat();
}

/**
 * Rows updated by this connection's transactions whose counts are not yet reported (the current one's included),
 * and how many of those updates were heap-only, per table: read before and after a batch, in its transaction.
 */
async function updates(tx: Tx, tables: string[]) {
  return Object.fromEntries(
    await Promise.all(
      tables.map(async (t) => {
        const [row] = rowsOf<{ updated: number; hot: number }>(
          await tx.execute(sql`select pg_stat_get_xact_tuples_updated(${t}::regclass)::int as updated,
                                      pg_stat_get_xact_tuples_hot_updated(${t}::regclass)::int as hot`),
        );
        return [t, row!];
      }),
    ),
  );
}

test("the daily rollups and the page counts take a batch's additions in place, on pages they have filled", async () => {
  const acct = await createTestAccount(handle.db);
  const domain = await registerDomain(handle.db, acct.accountId, "hot.rollups.example");
  // Each page's count starts at 32 crawls, long ago: the rounds below keep it under 64, the same power of two (the
  // rank the page counts' index holds). An update that moves a count to the next power moves its index entry.
  const old = Date.UTC(2024, 0, 1);
  const seed = Array.from({ length: PAGES * 32 }, (_, i) =>
    prepareVisit(
      domain.id,
      { occurredAt: new Date(old + i * 60_000), path: page(i), userAgent: UA.gptbot },
      `id:seed-${i}`,
    ),
  ).filter((v) => v !== null);
  expect(await recordVisits(handle.db, seed)).toBe(PAGES * 32);
  // 400 days of a bot and a citation: each daily rollup spans several pages of the table (a page holds some 100 of
  // its rows).
  expect(await recordVisits(handle.db, visits(domain.id, 0))).toBe(2 * DAYS);
  const tables = [
    "tracking_daily_bots",
    "tracking_daily_citations",
    "tracking_daily_pages",
    "tracking_daily_page_citations",
    "tracking_page_counts",
  ];
  const [pages] = rowsOf<{ n: number }>(
    await handle.db.execute(
      sql`select min(pg_relation_size(t::regclass) / 8192)::int as n from unnest(${`{${tables.join(",")}}`}::text[]) t`,
    ),
  );
  expect(pages!.n).toBeGreaterThan(1);

  // The same days and pages again, batch after batch: every rollup row of them is updated, none inserted.
  for (let round = 1; round <= 4; round++) {
    const counted = await handle.db.transaction(async (tx) => {
      const before = await updates(tx, tables);
      expect(await recordVisits(tx, visits(domain.id, round))).toBe(2 * DAYS);
      const after = await updates(tx, tables);
      return Object.fromEntries(
        tables.map((t) => [
          t,
          { updated: after[t]!.updated - before[t]!.updated, hot: after[t]!.hot - before[t]!.hot },
        ]),
      );
    });
    for (const t of tables) {
      expect(counted[t]!.updated, t).toBeGreaterThanOrEqual(t === "tracking_page_counts" ? PAGES : DAYS);
      // A page's last rows may find its free half taken by the new versions (and their line pointers) of the rows
      // before them: a few in a hundred.
      expect(counted[t]!.hot / counted[t]!.updated, t).toBeGreaterThanOrEqual(0.95);
    }
  }
});
