import { randomUUID } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import { chargeWithinCap, refusedRun, type SkipReason } from "@/lib/credits/capped-charge";
import type { Db, DbOrTx, Tx } from "@/lib/db/client";
import {
  type AuditSchedule,
  type AuditScheduleRun,
  auditScheduleRuns,
  auditSchedules,
} from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { MailMessage } from "@/lib/providers/smtp/mailer";
import type { Env } from "@/lib/tools/types";
import { notifyScheduleSkipped, type SkipDetail } from "./notify";
import type { HistoryRun, ScheduleRunStarted } from "./schemas";
import { nextRunOf, requireRunnable, requireSchedule, toolOf } from "./service";

/**
 * The Postgres channel job runners LISTEN on for new jobs: JOBS_CHANNEL of lib/jobs/events.ts, whose folder
 * registers this kind of schedule and so is not imported from here (test/schedules keeps the two equal). A
 * runner not listening finds the job on its next poll; the REST and MCP edges wake their own process's runner.
 */
export const JOBS_CREATED_CHANNEL = "jobs_created";

export type ScheduleRunOutcome =
  | { status: "running"; run: AuditScheduleRun; replayed?: boolean }
  | {
      status: "skipped";
      run: AuditScheduleRun | null;
      reason: SkipReason;
      detail: SkipDetail;
      mails: MailMessage[];
    };

/** The start of the calendar month in the schedule's time zone, as SQL. */
const monthStart = (timeZone: string) =>
  sql`(date_trunc('month', now() at time zone ${timeZone}) at time zone ${timeZone})`;

/** What a schedule spent this month: runs charged, less what their jobs gave back (a refund may precede the run's close). */
const spentSql = (s: AuditSchedule) => sql`
  select coalesce(sum(r.credits_charged - greatest(r.credits_refunded, coalesce(j.credits_refunded_amount, 0))), 0)::int
  from audit_schedule_runs r left join jobs j on j.id = r.job_id
  where r.schedule_id = ${s.id} and r.created_at >= ${monthStart(s.timeZone)}`;

/**
 * Creates a run of a schedule as the tool's job, charged in ONE statement at the tool's catalogue price: the
 * balance is taken only when it covers the run and the month's spend stays within the schedule's cap (the
 * conditional UPDATE is the guard; a balance never goes below zero), and the job, its spend ledger row and the
 * run pointing at the job are written by the same statement. The job's charge is the run's charge: the job
 * runner's refund of a failed job (once, guarded by the ledger's unique row per job) is the run's refund. When
 * the balance or the cap cannot cover it nothing is charged; a scheduled run is then recorded as skipped with its
 * reason and the owners told; a manual run is refused.
 */
async function startScheduleRun(
  tx: Tx,
  s: AuditSchedule,
  opts: { trigger: "schedule" | "manual"; scheduledFor?: Date; idempotencyKey?: string },
): Promise<ScheduleRunOutcome> {
  const tool = toolOf(s.tool);
  const cost = tool.cost(s.input);
  const runId = randomUUID();
  const jobId = randomUUID();
  // The schedule's row is locked first (a scheduled claim holds it already): two runs of one schedule started at
  // once are charged one after the other, the second seeing the first's spend against the monthly cap.
  await tx.execute(sql`select id from audit_schedules where id = ${s.id} for update`);
  if (opts.idempotencyKey) {
    const [replay] = await tx
      .select()
      .from(auditScheduleRuns)
      .where(
        and(
          eq(auditScheduleRuns.scheduleId, s.id),
          eq(auditScheduleRuns.idempotencyKey, opts.idempotencyKey),
        ),
      );
    if (replay) return { status: "running", run: replay, replayed: true };
  }
  const scheduledFor = opts.scheduledFor?.toISOString() ?? null;
  const outcome = await chargeWithinCap(tx, {
    accountId: s.accountId,
    cost,
    description: `Scheduled ${s.tool} of ${s.url}: job ${jobId}`,
    ref: { jobId },
    low: { jobId, tool: s.tool },
    cap: s.monthlyCreditCap,
    spent: spentSql(s),
    work: sql`job as (
        insert into jobs (id, account_id, tool, input, credits_charged)
        select ${jobId}, ${s.accountId}, ${s.tool}, ${JSON.stringify(s.input)}::jsonb, ${cost}::int from charged
        returning id
      ), run as (
        insert into audit_schedule_runs (id, schedule_id, account_id, tool, url, trigger, scheduled_for, status,
          job_id, credits_charged, idempotency_key)
        select ${runId}, ${s.id}, ${s.accountId}, ${s.tool}, ${s.url}, ${opts.trigger},
          ${scheduledFor}::timestamptz, 'running', job.id, ${cost}::int, ${opts.idempotencyKey ?? null}::text
        from job
        returning id
      )`,
    select: sql`pg_notify(${JOBS_CREATED_CHANNEL}, '') as notified`,
    from: sql`run`,
  });
  if (outcome.charged) {
    const [run] = await tx.select().from(auditScheduleRuns).where(eq(auditScheduleRuns.id, runId));
    return { status: "running", run: run! };
  }
  const { reason, detail } = outcome;
  if (opts.trigger === "manual") return { status: "skipped", run: null, reason, detail, mails: [] };
  const [run] = await tx
    .insert(auditScheduleRuns)
    .values({
      id: runId,
      scheduleId: s.id,
      accountId: s.accountId,
      tool: s.tool,
      url: s.url,
      trigger: opts.trigger,
      scheduledFor: opts.scheduledFor,
      status: "skipped",
      skipReason: reason,
      skipDetail: { ...detail },
      completedAt: new Date(),
    })
    .returning();
  const mails = await notifyScheduleSkipped(tx, s, run!, reason, detail);
  return { status: "skipped", run: run!, reason, detail, mails };
}

/**
 * POST /schedules/{id}/run: a run now, billed like a scheduled one. 402 when the balance cannot cover it, 400
 * when the schedule's monthly cap would be passed, 400 when the tool cannot run here; nothing is charged then.
 */
export async function runScheduleNow(
  db: Db,
  accountId: string,
  id: string,
  opts: { idempotencyKey?: string; env?: Env } = {},
): Promise<ScheduleRunStarted> {
  const current = await requireSchedule(db, accountId, id);
  await requireRunnable(db, toolOf(current.tool), current.input, opts.env);
  const outcome = await db.transaction(async (tx) => {
    const s = await requireSchedule(tx, accountId, id);
    if (s.domainId === null) {
      throw new AppError(
        "FORBIDDEN_SCOPE",
        `The domain ${s.domain} is no longer registered on this account.`,
        {
          domain: s.domain,
        },
      );
    }
    return startScheduleRun(tx, s, { trigger: "manual", idempotencyKey: opts.idempotencyKey });
  });
  if (outcome.status === "skipped") {
    throw refusedRun(outcome, "the schedule's", [
      { field: "monthlyCreditCap", message: "This run would pass the monthly cap." },
    ]);
  }
  const run = outcome.run;
  return {
    runId: run.id,
    scheduleId: run.scheduleId,
    jobId: run.jobId,
    status: run.status,
    creditsCharged: run.creditsCharged,
    replayed: outcome.replayed === true,
  };
}

/** A schedule that is due now: one run per slot, then the next slot (the scheduler kind's claim). */
export async function startDueScheduleRun(
  tx: Tx,
  scheduleId: string,
  due: Date,
  env?: Env,
): Promise<ScheduleRunOutcome | null> {
  const [s] = await tx.select().from(auditSchedules).where(eq(auditSchedules.id, scheduleId));
  if (!s) return null;
  // The next slot strictly after now: a schedule whose process was down for days runs once, not once per missed slot.
  const next = nextRunOf(s, new Date(Math.max(Date.now(), due.getTime())));
  await tx.update(auditSchedules).set({ nextRunAt: next }).where(eq(auditSchedules.id, s.id));
  if (s.domainId === null) return null;
  const existing = await tx
    .select({ id: auditScheduleRuns.id })
    .from(auditScheduleRuns)
    .where(and(eq(auditScheduleRuns.scheduleId, s.id), eq(auditScheduleRuns.scheduledFor, due)));
  if (existing.length > 0) return null;
  // A tool that stopped being runnable here (its browser removed) is not charged: the slot passes unbilled.
  try {
    await requireRunnable(tx, toolOf(s.tool), s.input, env);
  } catch (err) {
    if (err instanceof AppError) {
      console.warn(`[schedules] ${s.id}: ${s.tool} cannot run on this server; slot passed unbilled`);
      return null;
    }
    throw err;
  }
  return startScheduleRun(tx, s, { trigger: "schedule", scheduledFor: due });
}

export function historyRunView(r: AuditScheduleRun): HistoryRun {
  return {
    id: r.id,
    trigger: r.trigger,
    status: r.status,
    skipReason: r.skipReason,
    scheduledFor: r.scheduledFor?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    completedAt: r.completedAt?.toISOString() ?? null,
    jobId: r.jobId,
    creditsCharged: r.creditsCharged,
    creditsRefunded: r.creditsRefunded,
    scores: r.scores ?? null,
    vitals: (r.vitals as HistoryRun["vitals"]) ?? null,
    changes: (r.changes as HistoryRun["changes"]) ?? null,
    regressed: r.regressed,
    error: r.error ?? null,
  };
}

/** The completed runs of a schedule, newest first (the dashboard's trend and open-issue ages). */
export async function completedRuns(
  db: DbOrTx,
  scheduleId: string,
  limit = 400,
): Promise<AuditScheduleRun[]> {
  return db
    .select()
    .from(auditScheduleRuns)
    .where(and(eq(auditScheduleRuns.scheduleId, scheduleId), eq(auditScheduleRuns.status, "completed")))
    .orderBy(desc(auditScheduleRuns.createdAt), desc(auditScheduleRuns.id))
    .limit(limit);
}
