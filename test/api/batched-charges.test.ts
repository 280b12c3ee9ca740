import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { findLedgerMismatches } from "@/lib/credits/credits";
import type { Db, DbHandle } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { createJob } from "@/lib/jobs/create";
import { dbTest } from "@/test/support/fixtures";
import { createTestAccount } from "../accounts";
import { sleepTool } from "../jobs-helpers";

// Charges of one account that queue behind its statement in flight go as one statement. When that statement
// fails, nothing may be charged twice or lost: what it wrote (an error after its commit) is read back, the rest
// are charged alone.
const test = dbTest;
let handle: DbHandle;
test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
});

/** The database, with the batched charge statement failing before it runs or after it has run. */
function failingBatches(db: Db, when: "before" | "after"): Db {
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== "execute") return Reflect.get(target, prop, receiver);
      return async (query: Parameters<Db["execute"]>[0]) => {
        const text = JSON.stringify(query);
        if (!text.includes("jsonb_to_recordset")) return target.execute(query);
        if (when === "after") await target.execute(query);
        throw new Error(`connection lost ${when} the statement`);
      };
    },
  });
}

async function spends(accountId: string) {
  return rowsOf<{ n: number; total: number }>(
    await handle.db.execute(
      sql`select count(*)::int as n, coalesce(-sum(amount), 0)::int as total from credit_ledger
        where account_id = ${accountId} and type = 'spend'`,
    ),
  )[0]!;
}

for (const when of ["before", "after"] as const) {
  test(`a batched charge failing ${when} its statement: each request charged exactly once`, async () => {
    const acct = await createTestAccount(handle.db, { credits: 100 });
    const db = failingBatches(handle.db, when);
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        createJob(db, { accountId: acct.accountId, tool: sleepTool as never, input: { ms: 0 } }),
      ),
    );
    const ids = new Set(results.map((r) => r.job.id));
    expect(ids.size).toBe(6);
    const jobsOf = rowsOf<{ id: string }>(
      await handle.db.execute(sql`select id from jobs where account_id = ${acct.accountId}`),
    );
    expect(new Set(jobsOf.map((j) => j.id))).toEqual(ids);
    // 6 jobs at 7 credits: 42 charged once each, whichever way each charge went.
    expect(await spends(acct.accountId)).toEqual({ n: 6, total: 42 });
    const balance = rowsOf<{ credit_balance: number }>(
      await handle.db.execute(sql`select credit_balance from accounts where id = ${acct.accountId}`),
    )[0]!;
    expect(Number(balance.credit_balance)).toBe(58);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });
}
