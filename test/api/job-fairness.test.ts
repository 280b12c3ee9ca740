import { eq, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { findLedgerMismatches } from "@/lib/credits/credits";
import type { DbHandle } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";
import { createJob } from "@/lib/jobs/create";
import { claimPendingJobs, JobRunner, type RunnerOptions } from "@/lib/jobs/runner";
import { dbTest } from "@/test/support/fixtures";
import { createTestAccount, type TestAccount } from "../accounts";
import { sleepTool, testTools, waitFor } from "../jobs-helpers";

const opts: RunnerOptions = { concurrency: 4, leaseSeconds: 30, queueTimeoutSeconds: 600, pollMs: 50 };

const test = dbTest;
let handle: DbHandle;
let flooder: TestAccount;
let other: TestAccount;
let third: TestAccount;

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  flooder = await createTestAccount(handle.db, { credits: 10_000 });
  other = await createTestAccount(handle.db, { credits: 10_000 });
  third = await createTestAccount(handle.db, { credits: 10_000 });
});

async function newJob(account: TestAccount, ms: number) {
  const { job } = await createJob(handle.db, {
    accountId: account.accountId,
    tool: sleepTool as never,
    input: sleepTool.input.parse({ ms }),
  });
  return job;
}

async function processingOf(accountId: string): Promise<number> {
  const rows = await handle.db
    .select({ n: sql<number>`count(*)::int` })
    .from(jobs)
    .where(sql`${jobs.accountId} = ${accountId} and ${jobs.status} = 'processing'`);
  return Number(rows[0]?.n ?? 0);
}

async function settle() {
  await handle.db.execute(
    sql`update jobs set status = 'failed', lease_owner = null where status in ('pending', 'processing')`,
  );
}

describe("fair claiming across accounts", () => {
  test("an account flooding the queue leaves a slot: another account's job starts at once", async () => {
    for (let i = 0; i < 8; i++) await newJob(flooder, 1000);
    const runner = new JobRunner(handle.db, opts, testTools);
    runner.start();
    try {
      await waitFor(async () => (await processingOf(flooder.accountId)) === 3);
      const created = Date.now();
      const job = await newJob(other, 0);
      const started = await waitFor(async () => {
        const [row] = await handle.db.select().from(jobs).where(eq(jobs.id, job.id));
        return row?.startedAt ?? null;
      });
      // Claimed while all of the flood's jobs still ran (each sleeps 1 s): the slot was kept free for it.
      expect(started.getTime() - created).toBeLessThan(900);
      expect(await processingOf(flooder.accountId)).toBeLessThanOrEqual(3);
      await waitFor(async () => {
        const left = await handle.db
          .select({ n: sql<number>`count(*)::int` })
          .from(jobs)
          .where(sql`${jobs.status} in ('pending', 'processing')`);
        return Number(left[0]?.n) === 0;
      }, 20_000);
    } finally {
      await runner.stop();
      await runner.drain();
    }
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });

  test("free slots go round-robin: the account running the fewest first, then the oldest job", async () => {
    const flood = [];
    for (let i = 0; i < 6; i++) flood.push(await newJob(flooder, 0));
    const a = await newJob(other, 0);
    const b = await newJob(third, 0);
    const claimed = await claimPendingJobs(handle.db, "w1", 4, 30, 4);
    const byAccount = new Map<string, number>();
    for (const j of claimed) byAccount.set(j.accountId, (byAccount.get(j.accountId) ?? 0) + 1);
    // Six older jobs of one account do not take the four slots: each account gets its first job in.
    expect(claimed.map((j) => j.id)).toEqual(expect.arrayContaining([a.id, b.id, flood[0]!.id]));
    expect(byAccount.get(flooder.accountId)).toBe(2);
    expect(claimed.map((j) => j.id)).not.toContain(flood[2]!.id);
    await settle();
  });

  test("the per-account cap holds over several runners on the database", async () => {
    for (let i = 0; i < 10; i++) await newJob(flooder, 0);
    const claims = await Promise.all([
      claimPendingJobs(handle.db, "w1", 4, 30, 3),
      claimPendingJobs(handle.db, "w2", 4, 30, 3),
      claimPendingJobs(handle.db, "w3", 4, 30, 3),
    ]);
    const all = claims.flat();
    expect(all).toHaveLength(3);
    expect(new Set(all.map((j) => j.id)).size).toBe(3);
    expect(await processingOf(flooder.accountId)).toBe(3);
    // Nothing more for that account until one of its jobs ends; another account's job still goes in.
    expect(await claimPendingJobs(handle.db, "w4", 4, 30, 3)).toHaveLength(0);
    const job = await newJob(other, 0);
    expect((await claimPendingJobs(handle.db, "w4", 4, 30, 3)).map((j) => j.id)).toEqual([job.id]);
    await settle();
  });

  test("a runner's default cap is one below its concurrency, and JOB_ACCOUNT_CONCURRENCY sets it", async () => {
    const { runnerOptionsFromEnv } = await import("@/lib/jobs/runner");
    expect(runnerOptionsFromEnv({}).accountConcurrency).toBe(3);
    expect(runnerOptionsFromEnv({ JOB_CONCURRENCY: "8" }).accountConcurrency).toBe(7);
    expect(runnerOptionsFromEnv({ JOB_CONCURRENCY: "1" }).accountConcurrency).toBe(1);
    expect(runnerOptionsFromEnv({ JOB_ACCOUNT_CONCURRENCY: "2" }).accountConcurrency).toBe(2);
  });
});
