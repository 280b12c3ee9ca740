import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import type { MailMessage } from "@/lib/providers/smtp/mailer";
import { claimDueRows } from "@/lib/scheduler/claim";
import type { ScheduleKind, SchedulerContext } from "@/lib/scheduler/kinds";
import {
  AnswerWorker,
  type AnswerWorkerOptions,
  answerWorkerOptionsFromEnv,
  maintainMonitorAnswers,
} from "./execute";
import { sendMails } from "./notify";
import { startDueRun } from "./runs";

/** Due monitors claimed per pass; the rest wait for the next pass (a second or so later). */
const CLAIMS_PER_PASS = 50;

/** Due monitors → charged (or skipped) runs, one transaction per monitor; then the next slot. */
export async function claimDueMonitors(db: Db, max = CLAIMS_PER_PASS): Promise<number> {
  const mails: MailMessage[] = [];
  const n = await claimDueRows(
    db,
    { table: "monitors", where: sql`status = 'active'`, max },
    async (tx, row) => {
      const outcome = await startDueRun(tx, row.id, row.due);
      if (outcome?.status === "skipped") mails.push(...outcome.mails);
    },
  );
  if (mails.length > 0) await sendMails(mails);
  return n;
}

/** AI visibility monitors as a kind of schedule. */
export function monitorScheduleKind(options?: Partial<AnswerWorkerOptions>): ScheduleKind {
  const resolved = (ctx: SchedulerContext) => ({ ...answerWorkerOptionsFromEnv(ctx.env), ...options });
  return {
    name: "monitors",
    claimDue: (db) => claimDueMonitors(db),
    maintain: (db, ctx) => maintainMonitorAnswers(db, resolved(ctx), ctx.env),
    createWorker: (db, ctx) => new AnswerWorker(db, ctx, resolved(ctx)),
  };
}
