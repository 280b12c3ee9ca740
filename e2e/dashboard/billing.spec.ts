// Buying credits and the email flows in Chromium against the production build, at desktop and phone sizes:
// sign up → "check your email" (the same for an address that has an account) → the emailed link creates the
// account and signs in → an insufficient-credit state links to billing → buy a
// pack on (local) Stripe Checkout → the webhook credits it and the receipt is listed; "Forgot password?" →
// emailed reset link → new password; an invitation sent by email. axe-core finds no violation on these pages.
import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { mailTo } from "../mail";

const SHOTS = "test-results/screenshots";
const PASSWORD = "a long enough password";

const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function expectNoAxeViolations(page: Page) {
  // A soft navigation puts the new page's <title> in after its content: audit once it is there.
  await expect(page).toHaveTitle(/\S/);
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(
    violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    page.url(),
  ).toEqual([]);
}

/** Sends the sign-up form; the answer is "check your email" whatever the address. */
async function sendSignUp(page: Page, email: string) {
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  // A bcrypt hash at cost 12: slow on a busy machine.
  await expect(page.getByTestId("sign-up-sent")).toContainText("Check your email", { timeout: 30_000 });
}

for (const vp of VIEWPORTS) {
  test.describe(`at ${vp.width}×${vp.height}`, () => {
    test.use({ viewport: { width: vp.width, height: vp.height } });

    test("sign up by email link, buy a pack, invite by email, reset the password", async ({
      page,
      browser,
    }) => {
      test.setTimeout(480_000);
      const email = `buyer-${vp.name}-${Date.now()}@example.com`;
      await sendSignUp(page, email);
      await expectNoAxeViolations(page);
      await shot(page, `billing-${vp.name}-1-check-email`);

      // The emailed link's page: one button creates the account (verified, 100 free credits) and signs in.
      const signUpMail = await mailTo(email, /finish signing up/);
      const confirmLink = signUpMail.links.find((l) => l.includes("/signup/confirm?token="))!;
      await page.goto(confirmLink);
      await expect(page.getByRole("heading", { name: "Finish signing up" })).toBeVisible();
      await expect(page.getByText(email)).toBeVisible();
      await expectNoAxeViolations(page);
      await shot(page, `billing-${vp.name}-2-confirm`);
      await page.getByRole("button", { name: "Create my account" }).click();
      await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
      await expect(page.getByTestId("credit-balance")).toHaveText("100");
      await expect(page.getByTestId("verify-email-banner")).toHaveCount(0);

      // The link again (another tab, a mail scanner): a page that says so, and the way to sign in.
      await page.goto(confirmLink);
      await expect(page.getByRole("alert").filter({ hasText: "This link was already used" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
      await expectNoAxeViolations(page);

      // Someone signs up with the same address: the very same answer; the owner gets a mail, no link.
      const other = await browser.newContext({
        viewport: { width: vp.width, height: vp.height },
        extraHTTPHeaders: { "x-forwarded-for": `192.0.2.${vp.width > 1000 ? 91 : 92}` },
      });
      const stranger = await other.newPage();
      await sendSignUp(stranger, email.toUpperCase());
      await expect(stranger.getByTestId("sign-up-sent")).toContainText(email.toUpperCase());
      const warning = await mailTo(email, /Someone tried to create an account/);
      expect(warning.links.some((l) => l.endsWith("/forgot-password"))).toBe(true);
      await other.close();

      // A link that is not one: its own page, never an error.
      await page.goto("/signup/confirm?token=not-a-real-token");
      await expect(page.getByRole("alert").filter({ hasText: "This link is not valid" })).toBeVisible();
      await page.goto("/dashboard/billing");
      await expect(page.getByTestId("billing-balance")).toHaveText("100");

      // The balance card links to billing.
      await page.goto("/dashboard");
      await page.getByRole("link", { name: "Buy credits" }).click();
      await expect(page).toHaveURL(/\/dashboard\/billing$/);

      // A tool that costs more than the balance says so and links to billing.
      await page.goto("/dashboard/tools/ai-citation-check");
      await expect(page.getByTestId("tool-cost")).toHaveText("400");
      await expect(page.getByText("not enough credits.")).toBeVisible();
      await page.getByLabel("Prompt").fill("best coffee grinders");
      await page.getByLabel("Your domain").fill("example.com");
      await page.getByRole("button", { name: /Launch for 400 credits/ }).click();
      const refusal = page.getByRole("alert").filter({ hasText: "costs 400 credits" });
      await expect(refusal).toBeVisible();
      await shot(page, `billing-${vp.name}-3-insufficient`);
      await refusal.getByRole("link", { name: "Buy credits" }).click();
      await expect(page).toHaveURL(/\/dashboard\/billing$/);

      // Buy the Starter pack on the checkout page; the signed webhook credits it.
      await expect(page.getByRole("heading", { name: "Starter" })).toBeVisible();
      await page.getByRole("button", { name: /Buy Starter: 1,000 credits for \$10\.00/ }).click();
      await expect(page.getByRole("heading", { name: "Test checkout" })).toBeVisible({ timeout: 30_000 });
      await shot(page, `billing-${vp.name}-4-checkout`);
      await page.getByRole("button", { name: "Pay 10.00" }).click();
      await expect(page).toHaveURL(/\/dashboard\/billing\?checkout=success&session_id=cs_test_/, {
        timeout: 30_000,
      });
      await expect(page.getByRole("status").filter({ hasText: "Payment received" })).toBeVisible();
      await expect(page.getByTestId("billing-balance")).toHaveText("1,100");
      const receipt = page.getByTestId("receipts").getByRole("listitem").first();
      await expect(receipt).toContainText("Starter · 1,000 credits");
      await expect(receipt).toContainText("$10.00");
      await expectNoAxeViolations(page);
      await shot(page, `billing-${vp.name}-5-receipt`);

      // The purchase is a ledger row on the overview.
      await page.goto("/dashboard");
      await expect(page.getByTestId("credit-balance")).toHaveText("1,100");
      await expect(page.getByText(/Purchase: Starter pack, 1000 credits/)).toBeVisible();

      // A cancelled checkout charges nothing.
      await page.goto("/dashboard/billing");
      await page.getByRole("button", { name: /Buy Growth/ }).click();
      await page.getByRole("link", { name: "Cancel" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Checkout cancelled" })).toBeVisible();
      await expect(page.getByTestId("billing-balance")).toHaveText("1,100");

      // The same user (sign-ups are limited to 5 per hour per address, shared with the other specs).
      // An invitation is sent by email.
      const invitee = `invitee-${vp.name}-${Date.now()}@example.com`;
      await page.goto("/dashboard/members");
      await page.getByRole("textbox", { name: /^Email/ }).fill(invitee);
      await page.getByRole("button", { name: "Create invite link" }).click();
      await expect(
        page.getByRole("status").filter({ hasText: `Invitation emailed to ${invitee}` }),
      ).toBeVisible({
        timeout: 30_000,
      });
      await shot(page, `invite-${vp.name}-emailed`);
      const inviteMail = await mailTo(invitee, /invited/);
      const inviteLink = inviteMail.links.find((l) => l.includes("/invite/"))!;
      await page.goto(inviteLink);
      await expect(page.getByRole("heading").first()).toBeVisible();

      // Forgot password: the emailed link sets a new one (signed out from the dashboard: the invitation page
      // has no navigation).
      await page.goto("/dashboard");
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.goto("/login");
      await page.getByRole("link", { name: "Forgot password?" }).click();
      await expect(page).toHaveURL(/\/forgot-password$/);
      await expectNoAxeViolations(page);
      await page.getByLabel("Email").fill(email);
      await page.getByRole("button", { name: "Email me a reset link" }).click();
      await expect(
        page.getByRole("status").filter({ hasText: "If a sign-in exists for that address" }),
      ).toBeVisible({
        timeout: 30_000,
      });
      await shot(page, `reset-${vp.name}-1-requested`);

      const mail = await mailTo(email, /Reset your password/);
      const link = mail.links.find((l) => l.includes("/reset-password?token="))!;
      await page.goto(link);
      await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
      await expectNoAxeViolations(page);
      await shot(page, `reset-${vp.name}-2-form`);
      await page.getByLabel("New password").fill("my brand new password");
      await page.getByRole("button", { name: "Set new password" }).click();
      await expect(page).toHaveURL(/\/login\?reset=1$/, { timeout: 30_000 });
      await expect(page.getByRole("status").filter({ hasText: "Your password was changed" })).toBeVisible();

      // The link is used up.
      await page.goto(link);
      await expect(page.getByRole("alert").filter({ hasText: "expired or was already used" })).toBeVisible();

      // The old password no longer works; the new one does.
      await page.goto("/login");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password." })).toBeVisible({
        timeout: 30_000,
      });
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("my brand new password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
    });
  });
}
