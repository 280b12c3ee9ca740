// Scheduled audits in Chromium against the production build, at 1440×900 and 390×844: a new customer's domain,
// a schedule created through the page's form (and a form error shown, not a failure), a billed run now that the
// page then shows with its outcome, pause and resume, the trend and issue sections, no sideways scrolling, no
// axe-core violation, and delete.
import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { finishSignUp } from "../mail";

const SHOTS = "test-results/screenshots";
const PASSWORD = "a long enough password";
const DOMAIN = "scheduled-audits.example.com";
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "mobile", width: 390, height: 844 },
] as const;

async function expectNoViolations(page: Page, where: string) {
  // A soft navigation puts the new page's <title> in after its content: audit once it is there.
  await expect(page).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    where,
  ).toEqual([]);
}

async function expectNoOverflow(page: Page, where: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, where).toBeLessThanOrEqual(0);
}

test("scheduled audits: create, form error, run now, pause, resume, delete; both screens, axe", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  // Sign-ups are limited per client address and hour: this spec's person comes from an address of their own.
  const context = await browser.newContext({
    viewport: VIEWPORTS[0],
    extraHTTPHeaders: { "x-forwarded-for": "192.0.2.81" },
  });
  const page = await context.newPage();
  page.on("dialog", (d) => void d.accept());
  const email = `schedules-${Date.now()}@example.com`;
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await finishSignUp(page, email);

  await page.goto("/dashboard/domains");
  await page.getByLabel("Domain").fill(DOMAIN);
  await page.getByRole("button", { name: "Add domain" }).click();
  await expect(page.getByRole("heading", { name: DOMAIN })).toBeVisible();
  await page.getByRole("link", { name: "Scheduled audits" }).click();
  await expect(page.getByRole("heading", { name: `Scheduled audits: ${DOMAIN}`, level: 1 })).toBeVisible();
  await expect(page.getByText("No scheduled audits for this domain yet.")).toBeVisible();

  // A URL of another domain is refused in the form, next to it.
  await page.getByLabel("Audit").selectOption("ai-access");
  await page.getByLabel("Page URL").fill("https://elsewhere.example.org/");
  await page.getByRole("button", { name: "Schedule" }).click();
  await expect(page.getByText(/is not registered on this account/)).toBeVisible();

  await page.getByLabel("Page URL").fill(`https://${DOMAIN}/`);
  await page.getByLabel("How often").selectOption("day");
  await page.getByLabel("Hour (0–23)").fill("6");
  await page.getByLabel("Time zone").fill("Europe/Paris");
  await page.getByLabel("Monthly credit cap (optional)").fill("100");
  await page.getByRole("button", { name: "Schedule" }).click();
  const label = `AI access matrix of https://${DOMAIN}/`;
  await expect(page.getByRole("heading", { name: label })).toBeVisible();
  await expect(page.getByText(/Every day at 6:00 \(Europe\/Paris\) · 5 credits a run/)).toBeVisible();

  // Run now: billed, then shown with its outcome once the job has finished (the site is not reachable from
  // here, so the run may fail and be refunded; either way the page says what happened).
  await page.getByRole("button", { name: `Run ${label} now` }).click();
  await expect(page.getByText(/Run started and billed/)).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(page.getByText(/What changed in the last run|Latest run: failed/)).toBeVisible({
      timeout: 2000,
    });
  }).toPass({ timeout: 120_000 });

  await page.getByRole("button", { name: `Pause ${label}` }).click();
  await expect(page.getByText(/· paused/)).toBeVisible();
  await page.getByRole("button", { name: `Resume ${label}` }).click();
  await expect(page.getByText(/· next run/)).toBeVisible();

  for (const vp of VIEWPORTS) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    await page.reload();
    await expect(page.getByRole("heading", { name: label })).toBeVisible();
    await expectNoOverflow(page, `scheduled audits at ${vp.name}`);
    await expectNoViolations(page, `scheduled audits at ${vp.name}`);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/schedules-${vp.name}.png`, fullPage: true });
  }

  await page.getByRole("button", { name: `Delete ${label}` }).click();
  await expect(page.getByText("No scheduled audits for this domain yet.")).toBeVisible();
  await context.close();
});
