// A verdict reached after its visits were stored (reverse DNS, a signature's key directory) adds to the same rollup
// rows as the batches stored meanwhile. It locks them in the order a batch does, the page funnel's day before the
// bots' day, so the two wait for one another in turn instead of each holding what the other needs.
import { and, eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { registerDomain } from "@/lib/accounts/domains";
import type { DbHandle } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { trackingDailyBots, trackingDailyPages, visits } from "@/lib/db/schema";
import { prepareVisit, recordVisits } from "@/lib/tracking/ingest/record-visits";
import { storeVerdicts } from "@/lib/tracking/ingest/verdict-statement";
import { dbTest as test } from "@/test/support/fixtures";
import { createTestAccount } from "../accounts";
import { isPostgres } from "../db";

const AMAZONBOT =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36";

let handle: DbHandle;
test.beforeAll(({ handle: fileDb }) => {
  handle = fileDb;
});

test.skipIf(!isPostgres())(
  "a verdict waiting on a batch's page row holds no bot row the batch comes to next",
  async () => {
    const acct = await createTestAccount(handle.db);
    const domain = await registerDomain(handle.db, acct.accountId, "verdict-locks.example");
    const at = new Date();
    const day = at.toISOString().slice(0, 10);
    // An AI crawler's visit whose address no published range decides: stored undecided, settled later.
    const visit = prepareVisit(
      domain.id,
      { occurredAt: at, path: "/read", userAgent: AMAZONBOT, ip: "203.0.113.9" },
      "id:settled-later",
    )!;
    expect(visit.verification).toBe("unknown");
    await recordVisits(handle.db, [visit]);

    // A batch being stored: it has added to the day's page row and will add to the day's bot row next.
    const held = Promise.withResolvers<void>();
    const pageLocked = Promise.withResolvers<void>();
    const batch = handle.db.transaction(async (tx) => {
      await tx.execute(sql`
        update tracking_daily_pages set ai_crawls = ai_crawls + 1
        where domain_id = ${domain.id} and day = ${day} and page = '/read'`);
      pageLocked.resolve();
      await held.promise;
      await tx.execute(sql`
        update tracking_daily_bots set visits = visits + 1
        where domain_id = ${domain.id} and day = ${day} and bot_name = 'Amazonbot'`);
    });
    await pageLocked.promise;
    const verdict = storeVerdicts(
      handle.db,
      [[domain.id, at.toISOString(), "id:settled-later", "verified"]],
      "rdns",
    );
    const waiting = async () =>
      rowsOf<{ n: number }>(
        await handle.db.execute(sql`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`),
      )[0]!.n;
    for (let i = 0; i < 200 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await waiting()).toBe(1);
    // The verdict waits on the page row and has not taken the bot row.
    const free = rowsOf<{ n: number }>(
      await handle.db.execute(sql`
        select count(*)::int as n from (
          select 1 from tracking_daily_bots where domain_id = ${domain.id} and day = ${day} and bot_name = 'Amazonbot'
          for no key update skip locked) r`),
    )[0]!.n;
    expect(free).toBe(1);
    held.resolve();
    await batch;
    await verdict;

    const [bots] = await handle.db
      .select({
        visits: trackingDailyBots.visits,
        verified: trackingDailyBots.verifiedVisits,
        rdns: trackingDailyBots.rdnsVerifiedVisits,
      })
      .from(trackingDailyBots)
      .where(and(eq(trackingDailyBots.domainId, domain.id), eq(trackingDailyBots.botName, "Amazonbot")));
    expect(bots).toEqual({ visits: 2, verified: 1, rdns: 1 });
    const [page] = await handle.db
      .select({ crawls: trackingDailyPages.aiCrawls, verified: trackingDailyPages.verifiedAiCrawls })
      .from(trackingDailyPages)
      .where(eq(trackingDailyPages.domainId, domain.id));
    expect(page).toEqual({ crawls: 2, verified: 1 });
    const [stored] = await handle.db
      .select({ verification: visits.verification, method: visits.verificationMethod })
      .from(visits)
      .where(eq(visits.domainId, domain.id));
    expect(stored).toEqual({ verification: "verified", method: "rdns" });
  },
);
