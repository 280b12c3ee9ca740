// "Compare with the previous run": the account's last completed job of the same tool on the same input,
// before the given one, compared with it by the shared rules of lib/analysis/compare-results.
import { and, desc, eq, gt, lt, sql } from "drizzle-orm";
import { compareResults, type ResultComparison, snapshotOf } from "@/lib/analysis/compare-results";
import type { DbOrTx } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";

export interface PreviousRunComparison {
  jobId: string;
  /** The earlier run's job and when it finished; null when there is none to compare with. */
  previous: { jobId: string; completedAt: string | null } | null;
  comparison: ResultComparison | null;
  /** Why there is nothing to compare, in words. */
  reason?: string;
}

export async function compareWithPreviousRun(
  db: DbOrTx,
  accountId: string,
  jobId: string,
): Promise<PreviousRunComparison | null> {
  const now = new Date();
  const [job] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.accountId, accountId), gt(jobs.expiresAt, now)));
  if (!job) return null;
  const current = job.status === "completed" ? snapshotOf(job.tool, job.result) : null;
  if (!current)
    return {
      jobId,
      previous: null,
      comparison: null,
      reason: "This run has no result that can be compared.",
    };
  const [previous] = await db
    .select({ id: jobs.id, result: jobs.result, completedAt: jobs.completedAt })
    .from(jobs)
    .where(
      and(
        eq(jobs.accountId, accountId),
        eq(jobs.tool, job.tool),
        eq(jobs.status, "completed"),
        sql`${jobs.input} = ${JSON.stringify(job.input)}::jsonb`,
        lt(jobs.createdAt, job.createdAt),
        gt(jobs.expiresAt, now),
      ),
    )
    .orderBy(desc(jobs.createdAt))
    .limit(1);
  const before = previous ? snapshotOf(job.tool, previous.result) : null;
  if (!previous || !before) {
    return {
      jobId,
      previous: null,
      comparison: null,
      reason: "No earlier completed run of this tool on the same URL is kept (runs are kept 7 days).",
    };
  }
  return {
    jobId,
    previous: { jobId: previous.id, completedAt: previous.completedAt?.toISOString() ?? null },
    comparison: compareResults(before, current),
  };
}
