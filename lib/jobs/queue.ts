import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { type Job, jobs } from "@/lib/db/schema";
import { failJob } from "./transitions";

/**
 * Lock key of the claim: claims run one at a time across every process on the database, so the per-account
 * count they read is the one they leave (a claim is one short statement; jobs run long).
 */
const CLAIM_LOCK_KEY = 0x6a6f6273; // "jobs"

/**
 * Claims pending jobs fairly across accounts, with FOR UPDATE SKIP LOCKED so runners never take the same job.
 *
 * Fairness is round-robin by load: each account's pending jobs are taken oldest first, and a job's rank is its
 * account's running jobs plus its place in that account's queue, so a free slot goes to the account running
 * the fewest, and among equals to the oldest job. An account never holds more than `perAccount` jobs
 * processing at once on the whole database: one account flooding the queue (with pages that take a minute to
 * fail, refunded, so the flood is free) leaves the other slots to everyone else.
 */
export async function claimPendingJobs(
  db: Db,
  workerId: string,
  limit: number,
  leaseSeconds: number,
  perAccount: number = limit,
): Promise<Job[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK_KEY})`);
    const picked = rowsOf<{ id: string }>(
      await tx.execute(sql`
        with running as (
          select account_id, count(*)::int as n from jobs where status = 'processing' group by account_id
        ), waiting as (
          select distinct account_id from jobs where status = 'pending'
        ), ranked as (
          select q.id, q.created_at, coalesce(r.n, 0) + q.k as rank
          from waiting w
          left join running r on r.account_id = w.account_id
          cross join lateral (
            select j.id, j.created_at, row_number() over (order by j.created_at, j.id) as k
            from jobs j
            where j.status = 'pending' and j.account_id = w.account_id
            order by j.created_at, j.id
            limit ${limit}
          ) q
          where coalesce(r.n, 0) + q.k <= ${perAccount}
        )
        select id from ranked order by rank, created_at, id limit ${limit}`),
    );
    if (picked.length === 0) return [];
    const ids = picked.map((p) => p.id);
    const lockable = tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(inArray(jobs.id, ids), eq(jobs.status, "pending")))
      .for("update", { skipLocked: true });
    return (
      tx
        .update(jobs)
        .set({
          status: "processing",
          startedAt: sql`now()`,
          leaseOwner: workerId,
          leaseExpiresAt: sql`now() + make_interval(secs => ${leaseSeconds})`,
          attempts: sql`${jobs.attempts} + 1`,
        })
        // ARRAY(…) is evaluated once: as `id IN (…)` the planner may run the locking subquery again per row.
        .where(and(sql`${jobs.id} = any(array(${lockable}))`, eq(jobs.status, "pending")))
        .returning()
    );
  });
}

export async function renewLease(
  db: Db,
  jobId: string,
  workerId: string,
  leaseSeconds: number,
): Promise<void> {
  await db
    .update(jobs)
    .set({ leaseExpiresAt: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, "processing"), eq(jobs.leaseOwner, workerId)));
}

/** A processing job whose lease ran out lost its worker (crash, kill, restart): failed and refunded. */
export async function recoverInterruptedJobs(db: Db): Promise<number> {
  const stale = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.status, "processing"), lt(jobs.leaseExpiresAt, sql`now()`)))
    .limit(100);
  let count = 0;
  for (const { id } of stale) {
    const failed = await failJob(
      db,
      id,
      {
        code: "INTERRUPTED",
        message: "The job was interrupted (its worker stopped). The credits were refunded.",
      },
      { from: ["processing"] },
    );
    // Another runner may have recovered it first; the transition lets only one refund.
    if (failed) count++;
  }
  return count;
}

export async function failQueueTimeouts(db: Db, queueTimeoutSeconds: number): Promise<number> {
  const stale = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.status, "pending"),
        lt(jobs.createdAt, sql`now() - make_interval(secs => ${queueTimeoutSeconds})`),
      ),
    )
    .limit(100);
  let count = 0;
  for (const { id } of stale) {
    const failed = await failJob(
      db,
      id,
      { code: "QUEUE_TIMEOUT", message: "The job waited too long to start. The credits were refunded." },
      { from: ["pending"] },
    );
    if (failed) count++;
  }
  return count;
}

/** Jobs and results are kept 7 days; the ledger keeps its rows (their job id becomes null). */
export async function purgeExpiredJobs(db: Db): Promise<number> {
  const rows = await db.delete(jobs).where(lt(jobs.expiresAt, sql`now()`)).returning({ id: jobs.id });
  return rows.length;
}
