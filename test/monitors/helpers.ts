import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import type { GuardedFetch } from "@/lib/fetch/types";
import { AnswerWorker, type AnswerWorkerOptions } from "@/lib/monitors/execute";
import { claimDueMonitors } from "@/lib/monitors/schedule-kind";
import type { Env } from "@/lib/providers/engine-types";

export const FAST: AnswerWorkerOptions = {
  concurrency: 16,
  leaseSeconds: 60,
  maxAttempts: 3,
  retryBaseMs: 20,
  answerTimeoutMs: 20_000,
};

/** Provider limits high enough that the tests are not paced by the defaults (a test of the limits sets its own). */
export const FAST_LIMITS: Env = {
  OPENAI_RPM: "6000",
  ANTHROPIC_RPM: "6000",
  GEMINI_RPM: "6000",
  PERPLEXITY_RPM: "6000",
};

/** A worker as a process runs it, pointed at the fakes (env) and the routed fetch. */
export function worker(db: Db, env: Env, fetch: GuardedFetch, owner = `w_test_${Math.random()}`) {
  return new AnswerWorker(db, { owner, env: { ...FAST_LIMITS, ...env }, fetch }, FAST);
}

/** Every pending answer asked and stored by one worker, which then stops. */
export async function answerAll(db: Db, env: Env, fetch: GuardedFetch) {
  const w = worker(db, env, fetch);
  try {
    await w.fill();
    await w.drain({ untilMs: Date.now() + 30_000 });
  } finally {
    await w.stop();
  }
  return w.stats;
}

/** Every due monitor claimed, then every answer asked and stored. */
export async function runDue(db: Db, env: Env, fetch: GuardedFetch) {
  const claimed = await claimDueMonitors(db);
  await answerAll(db, env, fetch);
  return claimed;
}

/** Makes a monitor due now. */
export async function makeDue(db: Db, monitorId: string) {
  await db.execute(
    sql`update monitors set next_run_at = now() - interval '1 second' where id = ${monitorId}`,
  );
}

export async function ledgerMismatches(db: Db) {
  return rowsOf(
    await db.execute(sql`
      select a.id from accounts a left join credit_ledger l on l.account_id = a.id
      group by a.id having a.credit_balance <> coalesce(sum(l.amount), 0)`),
  );
}
