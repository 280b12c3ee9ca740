import { publicUrl } from "@/lib/email/links";
import { inviteEmail } from "@/lib/email/messages";
import { defaultMailer, type Mailer } from "@/lib/providers/smtp/mailer";

/**
 * Emails an invitation link (or, without SMTP, writes it to the server log). A mail server that fails does
 * not undo the invite: the owner still has the link to send themselves.
 */
export async function emailInvite(
  to: string,
  token: string,
  accountName: string,
  role: string,
  ctx: { mailer?: Mailer; baseUrl?: string } = {},
): Promise<{ emailedTo?: string; emailError?: string }> {
  const path = `/invite/${token}`;
  const link = ctx.baseUrl ? `${ctx.baseUrl.replace(/\/+$/, "")}${path}` : publicUrl(path);
  const mailer = ctx.mailer ?? defaultMailer();
  try {
    await mailer.send(inviteEmail(to, link, accountName, role));
  } catch (err) {
    console.error(`[mail] invitation to ${to} failed: ${(err as Error).message}`);
    return { emailError: "The invitation email could not be sent." };
  }
  return mailer.kind === "smtp" ? { emailedTo: to } : {};
}
