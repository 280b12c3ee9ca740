// SMTP settings, free of the mail library: capabilities and the operator page read them without loading it.
import type { Env } from "../env";

const DEFAULT_MAIL_FROM = "Findable <no-reply@localhost>";

export interface SmtpConfig {
  /** smtp:// or smtps://, with its credentials. */
  url: string;
  /** The sender (MAIL_FROM, else DEFAULT_MAIL_FROM). */
  from: string;
}

/** The mail server's settings, or null when SMTP_URL is not set (mail goes to the log). */
export function readSmtpConfig(env: Env = process.env): SmtpConfig | null {
  const url = env.SMTP_URL?.trim();
  if (!url) return null;
  return { url, from: env.MAIL_FROM?.trim() || DEFAULT_MAIL_FROM };
}
