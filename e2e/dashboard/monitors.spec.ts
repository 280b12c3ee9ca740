// Monitors in Chromium against the production build, at desktop and phone sizes: a new owner registers the
// roaster's domain, asks for suggested prompts (the site cannot be reached from here: the form says so and the
// prompts are written by hand), watches the estimate follow the form, creates the monitor, runs it now against
// the local fake engines (e2e/serve.ts), and reads the report: chart, brand vs competitors, the prompt × engine
// grid, grounding, cited domains and each answer with the brand marked. axe-core finds no violation, and the
// page never scrolls sideways.
import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { finishSignUp } from "../mail";

const SHOTS = "test-results/screenshots";
const PASSWORD = "a long enough password";
const DOMAIN = "northwind-roasters.com";

const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/monitors-${name}.png`, fullPage: true });
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

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${page.url()} scrolls sideways`).toBeLessThanOrEqual(0);
}

for (const vp of VIEWPORTS) {
  test.describe(`at ${vp.width}×${vp.height}`, () => {
    // Sign-ups are limited per client address and hour: this spec's person comes from an address of its own.
    test.use({
      viewport: { width: vp.width, height: vp.height },
      extraHTTPHeaders: { "x-forwarded-for": `192.0.2.${vp.width > 1000 ? 41 : 42}` },
    });

    test("create a monitor with its estimate, run it now, read the report", async ({ page }) => {
      test.setTimeout(300_000);
      const email = `monitors-${vp.name}-${Date.now()}@example.com`;
      await page.goto("/signup");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Create account" }).click();
      await finishSignUp(page, email);

      await page.goto("/dashboard/domains");
      await page.getByLabel("Domain").fill(DOMAIN);
      await page.getByRole("button", { name: "Add domain" }).click();
      await expect(page.getByText(DOMAIN).first()).toBeVisible();

      // The section is in the navigation (on a phone behind its menu, whatever the frame shows).
      await page.goto("/dashboard/monitors");
      await expect(page.getByRole("heading", { level: 1, name: "Monitors" })).toBeVisible();
      await expect(page.locator('a[href="/dashboard/monitors"][aria-current="page"]')).toHaveCount(1);
      await expectNoAxeViolations(page);
      await expectNoSidewaysScroll(page);
      await shot(page, `${vp.name}-1-empty`);
      await page.getByRole("link", { name: "New monitor" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "New monitor" })).toBeVisible();

      // Suggestions read the site itself; this one is not reachable from the test server, and the form says so.
      await page.getByRole("button", { name: "Suggest 10 prompts from the site" }).click();
      await expect(page.getByRole("alert").filter({ hasText: "could not be read" })).toBeVisible({
        timeout: 90_000,
      });

      // Every engine of the service is offered and checked; the estimate follows the form.
      for (const engine of ["ChatGPT", "Claude", "Gemini", "Perplexity"]) {
        await expect(page.getByRole("checkbox", { name: engine, exact: true })).toBeChecked();
      }
      await expect(page.getByTestId("estimate-answers")).toHaveText("0");
      await page.getByLabel("Brand names").fill("Northwind Roasters");
      await page.getByLabel("Competitor domains (up to 5)").fill("beanco.com");
      await page.getByLabel("Add a prompt").fill("Which coffee roaster ships fresh beans in Lyon?");
      await page.getByRole("button", { name: "Add", exact: true }).click();
      await expect(page.getByTestId("estimate-answers")).toHaveText("12");
      await expect(page.getByTestId("estimate-run")).toHaveText("60");
      await expect(page.getByTestId("estimate-month")).toHaveText("1,800");
      await page.getByLabel("Add a prompt").fill("What is the best pour-over coffee subscription?");
      await page.getByLabel("Add a prompt").press("Enter");
      await page.getByLabel("Samples per prompt and engine").fill("1");
      await expect(page.getByTestId("estimate-answers")).toHaveText("8");
      await expect(page.getByTestId("estimate-run")).toHaveText("40");
      await page.getByLabel("Every", { exact: true }).selectOption("week");
      await expect(page.getByLabel("Weekday", { exact: true })).toBeVisible();
      // 40 credits × 52 / 12 weekly runs, rounded up.
      await expect(page.getByTestId("estimate-month")).toHaveText("174");
      // The browser's own time zone is preselected.
      const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      await expect(page.getByLabel("Time zone")).toHaveValue(zone);

      // A refused value comes back as a form error beside its field, never a 500.
      await page.getByLabel("Monthly credit cap (optional)").fill("0");
      await page.getByRole("button", { name: "Create monitor" }).click();
      await expect(page.getByText("Must be a positive whole number of credits.")).toBeVisible();
      await expect(page.getByLabel("Monthly credit cap (optional)")).toHaveAttribute("aria-invalid", "true");
      await page.getByLabel("Monthly credit cap (optional)").fill("");
      await expectNoAxeViolations(page);
      await expectNoSidewaysScroll(page);
      await shot(page, `${vp.name}-2-form`);
      await page.getByRole("button", { name: "Create monitor" }).click();

      // The report of a monitor without runs yet, then a run now against the fake engines.
      await expect(page).toHaveURL(/\/dashboard\/monitors\/[0-9a-f-]{36}$/, { timeout: 30_000 });
      await expect(page.getByRole("heading", { level: 1, name: DOMAIN })).toBeVisible();
      await expect(page.getByText("No run yet.")).toBeVisible();
      await page.getByRole("button", { name: `Run ${DOMAIN} now for 40 credits` }).click();
      await expect(page.getByText("Run started: 40 credits charged")).toBeVisible();
      // The fake engines answer at once; the report fills when the run completes.
      await expect(async () => {
        await page.reload();
        await expect(page.getByTestId("monitor-run").first()).toContainText("Completed", { timeout: 1000 });
      }).toPass({ timeout: 90_000 });

      await expect(page.getByRole("heading", { name: "Share of voice per run" })).toBeVisible();
      await expect(page.locator(".recharts-surface").first()).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText(/95% interval \d+%–\d+%, n = \d+/).first()).toBeVisible();
      await expect(page.getByRole("cell", { name: "beanco.com", exact: true }).first()).toBeVisible();
      await expect(page.getByRole("group", { name: "Prompt by engine" })).toContainText("Mentioned");
      await expect(page.getByText("Wilson score interval").first()).toBeVisible();
      await expect(page.getByText("two-proportion z-test").first()).toBeVisible();

      // Each answer is readable: the text with the brand marked, its cited and retrieved sources.
      const run = page.getByTestId("monitor-run").first();
      await run.locator("summary").first().click();
      const mentioned = run.getByTestId("monitor-answer").filter({ hasText: "mentioned at #" }).first();
      await mentioned.locator("summary").click();
      await expect(mentioned.locator("mark").filter({ hasText: "Northwind Roasters" }).first()).toBeVisible();
      await expect(mentioned.getByRole("heading", { name: /^Cited \(\d+\)$/ })).toBeVisible();
      await expect(mentioned.getByRole("heading", { name: /^Retrieved \(\d+\)$/ })).toBeVisible();
      await expectNoAxeViolations(page);
      await expectNoSidewaysScroll(page);
      await shot(page, `${vp.name}-3-report`);

      // Compare with the previous period (empty): every change is "no significant change".
      await page.getByLabel("Compare with the previous period").check();
      await page.getByRole("button", { name: "Show" }).click();
      await expect(page).toHaveURL(/compare=previous/);
      await expect(page.getByText("no significant change").first()).toBeVisible();
      await expect(page.getByTestId("significant-change")).toHaveCount(0);

      // The CSV download carries the report.
      const csv = await page.request.get(
        (await page.getByRole("link", { name: "Download CSV" }).getAttribute("href"))!,
      );
      expect(csv.status()).toBe(200);
      expect(csv.headers()["content-type"]).toContain("text/csv");
      expect(await csv.text()).toContain("shareOfVoice");

      // The list shows the monitor with its schedule, status, last run and costs; pause and resume.
      await page.goto("/dashboard/monitors");
      await expect(page.getByRole("link", { name: DOMAIN })).toBeVisible();
      await expect(page.getByText("40 / 174")).toBeVisible();
      await page.getByRole("button", { name: `Pause ${DOMAIN}` }).click();
      await expect(page.getByTestId("monitor-status")).toHaveText("Paused by a member of the account");
      await page.getByRole("button", { name: `Resume ${DOMAIN}` }).click();
      await expect(page.getByTestId("monitor-status")).toHaveText("Active");
      await expectNoAxeViolations(page);
      await expectNoSidewaysScroll(page);
      await shot(page, `${vp.name}-4-list`);
    });
  });
}
