// The mail the e2e server sent: e2e/serve.ts runs a local SMTP server and appends each message to
// reports/e2e-mail-<port>.jsonl; specs read it to follow verification, reset and invitation links.
import { existsSync, readFileSync } from "node:fs";
import { expect, type Page } from "@playwright/test";

const port = process.env.E2E_PORT ?? "3210";
const MAIL_LOG = `reports/e2e-mail-${port}.jsonl`;

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

/**
 * After the sign-up form is sent: the page answers "check your email" (the same answer whether the address has
 * an account or not); the emailed link's page creates the account and signs in with one button. Resolves once
 * the browser has landed, signed in, on `landing` (the dashboard, or the `next` path the sign-up carried).
 */
export async function finishSignUp(
  page: Page,
  email: string,
  landing: RegExp | string = /\/dashboard$/,
): Promise<void> {
  const sent = page.getByTestId("sign-up-sent");
  await expect(sent).toContainText("Check your email", { timeout: 30_000 });
  await expect(sent).toContainText(email);
  const mail = await mailTo(email, /finish signing up/);
  const link = mail.links.find((l) => l.includes("/signup/confirm?token="));
  expect(link, "sign-up link").toBeTruthy();
  await page.goto(link!);
  await expect(page.getByRole("heading", { name: "Finish signing up" })).toBeVisible();
  await page.getByRole("button", { name: "Create my account" }).click();
  await expect(page).toHaveURL(landing, { timeout: 30_000 });
}
