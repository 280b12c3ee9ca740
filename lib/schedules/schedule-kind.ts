import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import type { MailMessage } from "@/lib/providers/smtp/mailer";
import { claimDueRows } from "@/lib/scheduler/claim";
import type { ScheduleKind } from "@/lib/scheduler/kinds";
import type { Env } from "@/lib/tools/types";
import { closeFinishedRuns, purgeScheduleHistory } from "./finalize";
import { sendMails } from "./notify";
import { startDueScheduleRun } from "./runs";

/** Due schedules claimed per pass; the rest wait for the next pass. */
const CLAIMS_PER_PASS = 50;

/**
 * Due schedules → charged (or skipped) runs, one transaction per schedule (FOR UPDATE SKIP LOCKED: two
 * processes never run one slot twice); then the runs whose job finished are closed and compared.
 */
async function claimDueSchedules(db: Db, env?: Env, max = CLAIMS_PER_PASS): Promise<number> {
  const mails: MailMessage[] = [];
  const n = await claimDueRows(
    db,
    { table: "audit_schedules", where: sql`status = 'active'`, max },
    async (tx, row) => {
      const outcome = await startDueScheduleRun(tx, row.id, row.due, env);
      if (outcome?.status === "skipped") mails.push(...outcome.mails);
    },
  );
  if (mails.length > 0) await sendMails(mails);
  await closeFinishedRuns(db);
  return n;
}

/**
 * Scheduled site audits as a kind of schedule: their runs are the tools' own jobs, run by the job runner (the
 * runner that claimed the schedule finds the job on its next pass; others hear of it through NOTIFY).
 */
export function auditScheduleKind(): ScheduleKind {
  return {
    name: "audit-schedules",
    claimDue: (db, ctx) => claimDueSchedules(db, ctx.env),
    maintain: async (db) => {
      await closeFinishedRuns(db, 500);
      await purgeScheduleHistory(db);
    },
  };
}
