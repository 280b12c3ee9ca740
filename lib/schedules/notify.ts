import { and, eq } from "drizzle-orm";
import type { SkipDetail } from "@/lib/credits/capped-charge";
import type { Tx } from "@/lib/db/client";
import { type AuditSchedule, type AuditScheduleRun, memberships, users } from "@/lib/db/schema";
import { publicUrl } from "@/lib/email/links";
import { addNotice } from "@/lib/monitors/notify";
import type { MailMessage } from "@/lib/providers/smtp/mailer";
import { TOOL_TITLES } from "@/lib/tools/titles";
import { emitWebhookEvent } from "@/lib/webhooks/outbox";

export { sendMails } from "@/lib/monitors/notify";
export type { SkipDetail };

export const scheduleLabel = (s: Pick<AuditSchedule, "tool" | "url">) =>
  `${TOOL_TITLES[s.tool as keyof typeof TOOL_TITLES] ?? s.tool} of ${s.url}`;

const scheduleLink = (s: Pick<AuditSchedule, "domain">) =>
  publicUrl(`/dashboard/domains/${encodeURIComponent(s.domain)}/audits`);

function skipMessage(s: AuditSchedule, reason: string, d: SkipDetail): string {
  const label = scheduleLabel(s);
  return reason === "monthly_cap"
    ? `The scheduled ${label} skipped a run: it costs ${d.required} credits and would pass the schedule's monthly cap of ${d.monthlyCreditCap} (${d.spentThisMonth} spent this month).`
    : `The scheduled ${label} skipped a run: it costs ${d.required} credits and the balance is ${d.available}. Add credits to resume its runs.`;
}

/** Who is told by email: the account's owners. */
async function ownerEmails(tx: Tx, accountId: string): Promise<string[]> {
  const owners = await tx
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.accountId, accountId), eq(memberships.role, "owner")));
  return owners.map((o) => o.email);
}

/**
 * A skipped run: the webhook event `audit.run_skipped` and the dashboard notice in the run's transaction; the
 * owners' emails after the commit (when the service sends mail), never holding the transaction.
 */
export async function notifyScheduleSkipped(
  tx: Tx,
  s: AuditSchedule,
  run: AuditScheduleRun,
  reason: "insufficient_credits" | "monthly_cap",
  detail: SkipDetail,
): Promise<MailMessage[]> {
  await emitWebhookEvent(tx, s.accountId, "audit.run_skipped", {
    scheduleId: s.id,
    runId: run.id,
    tool: s.tool,
    url: s.url,
    domain: s.domain,
    reason,
    ...detail,
  });
  const message = skipMessage(s, reason, detail);
  await addNotice(tx, s.accountId, "audit.run_skipped", message);
  const link = scheduleLink(s);
  return (await ownerEmails(tx, s.accountId)).map((to) => ({
    to,
    subject: "A scheduled audit was skipped",
    text: [message, "", `Open the domain's audits: ${link}`, "", "— Findable"].join("\n"),
  }));
}

/** A regressing run: the owners' emails (the webhook and the notice are written with the run's close). */
export async function regressionMails(
  tx: Tx,
  s: AuditSchedule,
  reasons: readonly string[],
): Promise<MailMessage[]> {
  const link = scheduleLink(s);
  const text = [
    `The latest scheduled ${scheduleLabel(s)} got worse:`,
    ...reasons.map((r) => `- ${r}`),
    "",
    `See what changed: ${link}`,
    "",
    "— Findable",
  ].join("\n");
  return (await ownerEmails(tx, s.accountId)).map((to) => ({
    to,
    subject: `A scheduled audit of ${s.domain} regressed`,
    text,
  }));
}
