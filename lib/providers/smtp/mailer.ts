// Outgoing mail over SMTP (nodemailer), configured by SMTP_URL. Without it, development servers write the
// message (and so its link) to the server log instead: nothing is sent and nothing is lost.
import nodemailer from "nodemailer";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** "smtp" sends; "log" writes the message to the server log. */
  readonly kind: "smtp" | "log";
  send(message: MailMessage): Promise<void>;
}

export interface MailEnv {
  SMTP_URL?: string;
  MAIL_FROM?: string;
}

export const DEFAULT_MAIL_FROM = "Findable <no-reply@localhost>";

/** A mailer for this environment: SMTP when SMTP_URL is set (smtp:// or smtps://), else the server log. */
export function createMailer(
  env: MailEnv = process.env as MailEnv,
  log: (line: string) => void = (line) => console.info(line),
): Mailer {
  const url = env.SMTP_URL?.trim();
  const from = env.MAIL_FROM?.trim() || DEFAULT_MAIL_FROM;
  if (!url) {
    return {
      kind: "log",
      async send(m) {
        log(`[mail] SMTP_URL is not set; not sent. To: ${m.to} · Subject: ${m.subject}\n${m.text}`);
      },
    };
  }
  const transport = nodemailer.createTransport(url, { from });
  return {
    kind: "smtp",
    async send(m) {
      await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html });
    },
  };
}

let shared: Mailer | undefined;

/** The process's mailer (one SMTP transport, reused). */
export function defaultMailer(): Mailer {
  shared ??= createMailer();
  return shared;
}
