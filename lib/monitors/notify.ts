import { and, eq } from "drizzle-orm";
import type { SkipDetail } from "@/lib/credits/capped-charge";
import type { DbOrTx, Tx } from "@/lib/db/client";
import { accountNotices, type Monitor, type MonitorRun, memberships, users } from "@/lib/db/schema";
import { publicUrl } from "@/lib/email/links";
import { defaultMailer, type MailMessage } from "@/lib/providers/smtp/mailer";
import { emitWebhookEvent } from "@/lib/webhooks/outbox";

export type { SkipDetail };

/** An account notice for the dashboard (the same facts as the webhook events). */
export async function addNotice(tx: DbOrTx, accountId: string, kind: string, message: string): Promise<void> {
  await tx.insert(accountNotices).values({ accountId, kind, message });
}

function skipMessage(m: Monitor, reason: string, d: SkipDetail): string {
  const label = m.name ?? m.domain;
  return reason === "monthly_cap"
    ? `The monitor "${label}" skipped a run: it costs ${d.required} credits and would pass the monitor's monthly cap of ${d.monthlyCreditCap} (${d.spentThisMonth} spent this month).`
    : `The monitor "${label}" skipped a run: it costs ${d.required} credits and the balance is ${d.available}. Add credits to resume its runs.`;
}

/**
 * A skipped run: the webhook event and the dashboard notice in the run's transaction; the email to the account's
 * owners after the commit (when the service sends mail), never holding the transaction.
 */
export async function notifyRunSkipped(
  tx: Tx,
  m: Monitor,
  run: MonitorRun,
  reason: "insufficient_credits" | "monthly_cap",
  detail: SkipDetail,
): Promise<MailMessage[]> {
  await emitWebhookEvent(tx, m.accountId, "monitor.run_skipped", {
    monitorId: m.id,
    runId: run.id,
    domain: m.domain,
    reason,
    ...detail,
  });
  const message = skipMessage(m, reason, detail);
  await addNotice(tx, m.accountId, "monitor.run_skipped", message);
  const owners = await tx
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.accountId, m.accountId), eq(memberships.role, "owner")));
  return owners.map((o) => skippedEmail(o.email, message, m.id));
}

function skippedEmail(to: string, message: string, monitorId: string): MailMessage {
  const link = publicUrl(`/dashboard/monitors/${monitorId}`);
  return {
    to,
    subject: "A monitor run was skipped",
    text: [message, "", `Open the monitor: ${link}`, "", "— Findable"].join("\n"),
  };
}

/** Sends the owners' emails once the skip is committed (a rolled-back skip sends nothing). */
export async function sendMails(mails: MailMessage[]) {
  const mailer = defaultMailer();
  // Without SMTP the service has no way to send mail; the webhook and the notice stand alone.
  if (mailer.kind !== "smtp") return;
  for (const mail of mails) {
    await mailer.send(mail).catch((err) => console.error("[monitors] skip email not sent", String(err)));
  }
}
