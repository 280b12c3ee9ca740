import { and, desc, eq, lt, sql } from "drizzle-orm";
import {
  compareResults,
  type ResultComparison,
  type ResultSnapshot,
  snapshotOf,
} from "@/lib/analysis/compare-results";
import { compareVitals, type Vitals, vitalsOf, vitalsSnapshot } from "@/lib/analysis/compare-vitals";
import type { Db, Tx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { auditScheduleRuns, auditSchedules, jobs } from "@/lib/db/schema";
import { addNotice } from "@/lib/monitors/notify";
import type { MailMessage } from "@/lib/providers/smtp/mailer";
import { emitWebhookEvent } from "@/lib/webhooks/outbox";
import { regressionMails, scheduleLabel, sendMails } from "./notify";
import { type RunChanges, SCHEDULE_LIMITS } from "./schemas";

/** The snapshot a completed job's result is kept as (the comparison's input for 13 months). */
function runSnapshotOf(tool: string, result: unknown): ResultSnapshot | null {
  return tool === "core-web-vitals" ? vitalsSnapshot(result) : snapshotOf(tool, result);
}

/** A check of the highest severity: an error, or (for checks without a severity) a failure. */
const highest = (c: { severity: string | null; status: string }) =>
  c.severity === "error" || (c.severity === null && c.status === "fail");

/**
 * Why a run regressed against the one before: a score fell by at least SCHEDULE_LIMITS.regressionPoints, or a new
 * issue of the highest severity appeared. Empty when it did not regress.
 */
function regressionsOf(cmp: ResultComparison): string[] {
  const out: string[] = [];
  for (const [name, delta] of Object.entries(cmp.scoreDelta)) {
    if (delta <= -SCHEDULE_LIMITS.regressionPoints) out.push(`The ${name} score fell by ${-delta} points.`);
  }
  for (const issue of cmp.new) if (highest(issue)) out.push(`New issue: ${issue.title}.`);
  return out;
}

export function changesBetween(
  previous: { id: string; snapshot: ResultSnapshot; vitals: Vitals | null },
  current: { snapshot: ResultSnapshot; vitals: Vitals | null },
): RunChanges {
  const cmp = compareResults(previous.snapshot, current.snapshot);
  return {
    previousRunId: previous.id,
    new: cmp.new,
    fixed: cmp.fixed,
    open: cmp.open,
    scoreDelta: cmp.scoreDelta,
    vitals: previous.vitals || current.vitals ? compareVitals(previous.vitals, current.vitals) : [],
    regressions: regressionsOf(cmp),
  };
}

interface Closable {
  id: string;
  job_status: string | null;
}

/**
 * Closes the runs whose job has finished (any process, FOR UPDATE SKIP LOCKED, so each run is closed once):
 * a completed job's result is kept as the run's snapshot and scores and compared with the schedule's previous
 * completed run; exactly one webhook event per run, `audit.regressed` when it regressed, else `audit.completed`.
 * A failed job (refunded once by the job runner) fails the run with its refund; a job gone before its run was
 * closed fails the run too. Returns how many runs were closed.
 */
export async function closeFinishedRuns(db: Db, max = 50): Promise<number> {
  let closed = 0;
  const mails: MailMessage[] = [];
  while (closed < max) {
    const done = await db.transaction(async (tx) => {
      const [row] = rowsOf<Closable>(
        await tx.execute(sql`
          select r.id, j.status as job_status from audit_schedule_runs r left join jobs j on j.id = r.job_id
          where r.status = 'running' and (j.id is null or j.status in ('completed', 'failed'))
          order by r.created_at
          limit 1
          for update of r skip locked`),
      );
      if (!row) return false;
      mails.push(...(await closeRun(tx, row.id)));
      return true;
    });
    if (!done) break;
    closed++;
  }
  if (mails.length > 0) await sendMails(mails);
  return closed;
}

async function closeRun(tx: Tx, runId: string): Promise<MailMessage[]> {
  const [run] = await tx.select().from(auditScheduleRuns).where(eq(auditScheduleRuns.id, runId));
  if (!run) return [];
  const [schedule] = await tx.select().from(auditSchedules).where(eq(auditSchedules.id, run.scheduleId));
  const [job] = run.jobId ? await tx.select().from(jobs).where(eq(jobs.id, run.jobId)) : [];
  const label = schedule ? scheduleLabel(schedule) : `${run.tool} of ${run.url}`;
  const snapshot = job?.status === "completed" ? runSnapshotOf(run.tool, job.result) : null;
  if (!job || job.status === "failed" || !snapshot) {
    const error = job?.error ?? {
      code: job ? "RESULT_UNREADABLE" : "JOB_LOST",
      message: job ? "The audit's result could not be read." : "The audit's job is gone.",
    };
    const refunded = job ? Math.min(run.creditsCharged, job.creditsRefundedAmount) : 0;
    await tx
      .update(auditScheduleRuns)
      .set({ status: "failed", error, creditsRefunded: refunded, completedAt: new Date() })
      .where(eq(auditScheduleRuns.id, run.id));
    await addNotice(
      tx,
      run.accountId,
      "audit.run_failed",
      refunded > 0
        ? `The scheduled ${label} failed (${error.message}); its ${refunded} credits were refunded.`
        : `The scheduled ${label} failed (${error.message}).`,
    );
    return [];
  }
  const vitals = run.tool === "core-web-vitals" ? vitalsOf(job.result) : null;
  const [previous] = await tx
    .select()
    .from(auditScheduleRuns)
    .where(
      and(
        eq(auditScheduleRuns.scheduleId, run.scheduleId),
        eq(auditScheduleRuns.status, "completed"),
        lt(auditScheduleRuns.createdAt, run.createdAt),
      ),
    )
    .orderBy(desc(auditScheduleRuns.createdAt), desc(auditScheduleRuns.id))
    .limit(1);
  const changes =
    previous?.snapshot != null
      ? changesBetween(
          {
            id: previous.id,
            snapshot: previous.snapshot as ResultSnapshot,
            vitals: (previous.vitals as Vitals | null) ?? null,
          },
          { snapshot, vitals },
        )
      : null;
  const regressed = changes !== null && changes.regressions.length > 0;
  await tx
    .update(auditScheduleRuns)
    .set({
      status: "completed",
      snapshot,
      scores: snapshot.scores,
      vitals,
      changes,
      regressed,
      creditsRefunded: Math.min(run.creditsCharged, job.creditsRefundedAmount),
      completedAt: new Date(),
    })
    .where(eq(auditScheduleRuns.id, run.id));
  const data = {
    scheduleId: run.scheduleId,
    runId: run.id,
    jobId: job.id,
    tool: run.tool,
    url: run.url,
    domain: schedule?.domain ?? null,
    scores: snapshot.scores,
    ...(vitals ? { vitals } : {}),
    changes: changes
      ? {
          previousRunId: changes.previousRunId,
          new: changes.new.map((c) => ({ id: c.id, title: c.title, severity: c.severity })),
          fixed: changes.fixed.map((c) => ({ id: c.id, title: c.title })),
          open: changes.open.length,
          scoreDelta: changes.scoreDelta,
          vitals: changes.vitals,
        }
      : null,
  };
  if (regressed) {
    await emitWebhookEvent(tx, run.accountId, "audit.regressed", {
      ...data,
      regressions: changes!.regressions,
    });
    await addNotice(
      tx,
      run.accountId,
      "audit.regressed",
      `The scheduled ${label} got worse: ${changes!.regressions.join(" ")}`,
    );
    return schedule ? regressionMails(tx, schedule, changes!.regressions) : [];
  }
  await emitWebhookEvent(tx, run.accountId, "audit.completed", data);
  return [];
}

/** Deletes runs older than 13 months (the runner's housekeeping). */
export async function purgeScheduleHistory(db: Db): Promise<number> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`delete from audit_schedule_runs where expires_at < now() returning id`),
  );
  return rows.length;
}
