import { and, eq, inArray, sql } from "drizzle-orm";
import { refundJobCredits } from "@/lib/credits/credits";
import type { Db, Tx } from "@/lib/db/client";
import { type Job, type JobStatus, jobs } from "@/lib/db/schema";
import type { JobFailure } from "@/lib/errors";
import { emitWebhookEvent } from "@/lib/webhooks/outbox";

/** The `data` of a job.completed / job.failed event: the job without its result (GET the pollUrl for it). */
function jobEventData(job: Job): Record<string, unknown> {
  return {
    jobId: job.id,
    tool: job.tool,
    status: job.status,
    creditsCharged: job.creditsCharged,
    creditsRefunded: job.creditsRefunded,
    ...(job.error ? { error: job.error } : {}),
    createdAt: job.createdAt.toISOString(),
    completedAt: job.completedAt?.toISOString() ?? null,
    pollUrl: `/api/v1/jobs/${job.id}`,
  };
}

/**
 * Fails a job and refunds it, in one transaction. The state transition is the guard: only a job
 * still in one of `from` (and, if given, still leased by `leaseOwner`) moves, so a job is refunded once
 * however many runners try. Returns the failed job, or null if it had already moved on.
 */
export async function failJob(
  db: Db,
  jobId: string,
  error: JobFailure,
  opts: { from?: JobStatus[]; leaseOwner?: string } = {},
): Promise<Job | null> {
  const from = opts.from ?? ["pending", "processing"];
  return db.transaction(async (tx) => {
    const [job] = await tx
      .update(jobs)
      .set({
        status: "failed",
        error,
        completedAt: new Date(),
        leaseOwner: null,
        leaseExpiresAt: null,
        creditsRefunded: sql`${jobs.creditsCharged} > 0`,
        creditsRefundedAmount: sql`${jobs.creditsCharged}`,
      })
      .where(
        and(
          eq(jobs.id, jobId),
          inArray(jobs.status, from),
          opts.leaseOwner ? eq(jobs.leaseOwner, opts.leaseOwner) : undefined,
        ),
      )
      .returning();
    if (!job) return null;
    await refundJobCredits(tx, job, error.code);
    // The event is in the outbox exactly when the job is failed (same transaction).
    await emitWebhookEvent(tx, job.accountId, "job.failed", jobEventData(job), {
      at: job.completedAt ?? undefined,
    });
    return job;
  });
}

/**
 * Stores the result if this runner still holds the job's lease; false if the job was taken from it.
 * `onCompleted` (the tool's hook) runs in the same transaction, so what it records exists exactly
 * when the job is completed; if it throws, nothing is stored and the caller fails the job.
 */
export async function completeJob(
  db: Db,
  jobId: string,
  leaseOwner: string,
  result: unknown,
  onCompleted?: (tx: Tx, job: Job) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [job] = await tx
      .update(jobs)
      .set({
        status: "completed",
        result: result as object,
        completedAt: new Date(),
        leaseOwner: null,
        leaseExpiresAt: null,
      })
      .where(and(eq(jobs.id, jobId), eq(jobs.status, "processing"), eq(jobs.leaseOwner, leaseOwner)))
      .returning();
    if (!job) return false;
    await onCompleted?.(tx, job);
    await emitWebhookEvent(tx, job.accountId, "job.completed", jobEventData(job), {
      at: job.completedAt ?? undefined,
    });
    return true;
  });
}
