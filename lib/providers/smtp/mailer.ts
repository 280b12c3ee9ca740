// Outgoing mail over SMTP (nodemailer), configured by SMTP_URL. Without it, development servers write the
// message (and so its link) to the server log instead: nothing is sent and nothing is lost.
import nodemailer from "nodemailer";
import type { Env } from "../env";
import { ProviderError } from "../provider-error";
import { readSmtpConfig } from "./config";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** "smtp" sends; "log" writes the message to the server log. */
  readonly kind: "smtp" | "log";
  /** Throws an SmtpError when the mail server cannot take the message. */
  send(message: MailMessage): Promise<void>;
}

type SmtpErrorCode = "SMTP_UNREACHABLE" | "SMTP_AUTH_FAILED" | "SMTP_REJECTED";

/** A message the mail server did not take. Its message never carries SMTP_URL (it holds the password). */
class SmtpError extends ProviderError<SmtpErrorCode> {
  constructor(code: SmtpErrorCode, message: string, options: { status?: number } = {}) {
    // A lost connection and a temporary (4xx) refusal may pass; a permanent (5xx) one will not.
    const retryable = code === "SMTP_UNREACHABLE" || (options.status !== undefined && options.status < 500);
    super("smtp", code, message, { retryable, ...options });
    this.name = "SmtpError";
  }
}

/** nodemailer's error as an SmtpError: its `code` (ECONNECTION, EAUTH, …) and the server's reply code. */
function toSmtpError(err: unknown): SmtpError {
  if (err instanceof SmtpError) return err;
  const e = err as { code?: unknown; responseCode?: unknown; response?: unknown };
  const status = typeof e?.responseCode === "number" ? e.responseCode : undefined;
  const options = status !== undefined ? { status } : {};
  if (e?.code === "EAUTH")
    return new SmtpError("SMTP_AUTH_FAILED", "The mail server refused the login.", options);
  if (status !== undefined) {
    const reply = typeof e.response === "string" ? `: ${e.response.slice(0, 200)}` : "";
    return new SmtpError(
      "SMTP_REJECTED",
      `The mail server refused the message (${status}${reply}).`,
      options,
    );
  }
  const why = typeof e?.code === "string" ? ` (${e.code})` : "";
  return new SmtpError("SMTP_UNREACHABLE", `The mail server could not be reached${why}.`, options);
}

/** A mailer for this environment: SMTP when SMTP_URL is set (smtp:// or smtps://), else the server log. */
export function createMailer(
  env: Env = process.env,
  log: (line: string) => void = (line) => console.info(line),
): Mailer {
  const config = readSmtpConfig(env);
  if (!config) {
    return {
      kind: "log",
      async send(m) {
        log(`[mail] SMTP_URL is not set; not sent. To: ${m.to} · Subject: ${m.subject}\n${m.text}`);
      },
    };
  }
  const { from } = config;
  const transport = nodemailer.createTransport(config.url, { from });
  return {
    kind: "smtp",
    async send(m) {
      try {
        await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html });
      } catch (err) {
        throw toSmtpError(err);
      }
    },
  };
}

let shared: Mailer | undefined;

/** The process's mailer (one SMTP transport, reused). */
export function defaultMailer(): Mailer {
  shared ??= createMailer();
  return shared;
}
