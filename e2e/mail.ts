// The mail the e2e server sent: e2e/serve.ts runs a local SMTP server and appends each message to
// reports/e2e-mail-<port>.jsonl; specs read it to follow verification, reset and invitation links.
import { existsSync, readFileSync } from "node:fs";
import { expect, type Page } from "@playwright/test";

const port = process.env.E2E_PORT ?? "3210";
export const MAIL_LOG = `reports/e2e-mail-${port}.jsonl`;

export interface SentMail {
  to: string[];
  subject: string;
  text: string;
  links: string[];
}

function readMails(): SentMail[] {
  if (!existsSync(MAIL_LOG)) return [];
  return readFileSync(MAIL_LOG, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as SentMail);
}

/** The latest mail to `to` whose subject matches, waiting for it to arrive. */
export async function mailTo(to: string, subject: RegExp): Promise<SentMail> {
  let found: SentMail | undefined;
  await expect
    .poll(
      () => {
        found = readMails()
          .filter((m) => m.to.some((t) => t.toLowerCase() === to.toLowerCase()) && subject.test(m.subject))
          .at(-1);
        return Boolean(found);
      },
      { timeout: 15_000, message: `a mail to ${to} matching ${subject}` },
    )
    .toBe(true);
  return found!;
}

/** Opens the emailed verification link: the address is verified and the sign-up bonus granted. */
export async function verifyEmail(page: Page, email: string): Promise<void> {
  const mail = await mailTo(email, /Verify your email/);
  const link = mail.links.find((l) => l.includes("/verify-email?token="));
  expect(link, "verification link").toBeTruthy();
  await page.goto(link!);
  await expect(page).toHaveURL(/\/dashboard\/billing\?verified=1/, { timeout: 30_000 });
}
