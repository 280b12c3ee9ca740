// A local SMTP server for tests: accepts every message on 127.0.0.1 (no TLS, no auth) and keeps it, so a
// test can read the mail the service sent and follow its links.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface CapturedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The message's text, unfolded from quoted-printable. */
  text: string;
  links: string[];
}

export interface FakeSmtp {
  /** Value for SMTP_URL. */
  url: string;
  mails: CapturedMail[];
  /** The first mail to `to` (case-insensitive) whose subject matches, waiting up to `timeoutMs`. */
  waitFor(to: string, subject?: RegExp, timeoutMs?: number): Promise<CapturedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(s: string): string {
  return s
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

/** The text/plain part of a raw message (nodemailer writes multipart/alternative with text first). */
function parseMail(raw: string, envelope: { from: string; to: string[] }): CapturedMail {
  const subject = raw.match(/^Subject: (.*)$/m)?.[1]?.trim() ?? "";
  const plain = raw.split(/Content-Type: text\/plain[^\n]*\n/i)[1] ?? raw;
  const [headers = "", ...rest] = plain.split(/\r?\n\r?\n/);
  let body = rest.join("\n\n").split(/\r?\n--/)[0] ?? "";
  if (/quoted-printable/i.test(headers)) body = decodeQuotedPrintable(body);
  const links = [...body.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);
  return { ...envelope, raw, subject, text: body, links };
}

/** `delayMs`: how long the server takes to accept each message (a slow mail server). */
export async function startFakeSmtp(
  onMail?: (mail: CapturedMail) => void,
  opts: { delayMs?: number } = {},
): Promise<FakeSmtp> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const mail = parseMail(Buffer.concat(chunks).toString("utf8"), {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
        });
        setTimeout(() => {
          mails.push(mail);
          onMail?.(mail);
          callback();
        }, opts.delayMs ?? 0);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, subject, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = mails.find(
          (m) =>
            m.to.some((t) => t.toLowerCase() === to.toLowerCase()) && (!subject || subject.test(m.subject)),
        );
        if (hit) return hit;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
