// The dashboard as a new paying customer finds it on a server that is only partly set up, at 1440×900 and
// 390×844: every tool the server can run is runnable (Core Web Vitals, keyword research from a URL) and the
// others sit apart; no page names an operator's setting; billing without card payments shows the packs and
// whom to write to; the overview compares like with like; deep links and typed input survive; the mobile frame
// is one line; the dashboard's own 404; the operator's page of integrations. axe-core on every page shown.
//
// Run it against a server without DataForSEO, Stripe and three of the four AI engines, as the issue found it:
//   DATAFORSEO_LOGIN= STRIPE_SECRET_KEY= STRIPE_WEBHOOK_SECRET= ANTHROPIC_API_KEY= GEMINI_API_KEY= \
//   PERPLEXITY_API_KEY= OPERATOR_CONTACT_EMAIL=credits@e2e.example.com npx playwright test e2e/dashboard/second-pass.spec.ts
import { mkdirSync, readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { finishSignUp } from "../mail";

const port = process.env.E2E_PORT ?? "3210";
const SHOTS = "test-results/screenshots";
const PASSWORD = "a long enough password";
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "mobile", width: 390, height: 844 },
] as const;
type Viewport = (typeof VIEWPORTS)[number];

const fixtureUrl = () =>
  (JSON.parse(readFileSync(`reports/e2e-fixture-${port}.json`, "utf8")) as { url: string }).url;
const operatorLogin = () =>
  (
    JSON.parse(readFileSync("reports/e2e-accounts.json", "utf8")) as {
      operator: { email: string; password: string };
    }
  ).operator;

/** What customers never read: the settings of .env.example, a command, the README. */
const SETTINGS = [...readFileSync(".env.example", "utf8").matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map(
  (m) => m[1]!,
);
async function expectNoOperatorWords(page: Page, where: string) {
  // The whole document: its text, attributes and the data the page was rendered from.
  const html = await page.content();
  const found = SETTINGS.filter((s) => new RegExp(`\\b${s}\\b`).test(html));
  const words = html.match(/\bREADME\b|npm run|npx /g) ?? [];
  expect([...found, ...words], where).toEqual([]);
}

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${SHOTS}/second-${name}-${width}.png`, fullPage: true });
}

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

/** A page checked the same way everywhere: axe, no sideways scrolling, no operator words, a screenshot. */
async function check(page: Page, name: string) {
  await page.waitForLoadState("networkidle");
  await expectNoViolations(page, name);
  await expectNoOverflow(page, name);
  await expectNoOperatorWords(page, name);
  await shot(page, name);
}

async function personPage(browser: Browser, label: string, viewport: Viewport) {
  let hash = 0;
  for (const c of label) hash = (hash * 31 + c.charCodeAt(0)) % 250;
  const context = await browser.newContext({
    viewport: { width: viewport.width, height: viewport.height },
    extraHTTPHeaders: { "x-forwarded-for": `203.0.113.${hash + 1}` },
  });
  return context.newPage();
}

async function signUp(browser: Browser, label: string, viewport: Viewport) {
  const page = await personPage(browser, label, viewport);
  await page.goto("/signup");
  const email = `${label}-${Date.now()}@example.com`;
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await finishSignUp(page, email);
  return { page, email };
}

test.describe.configure({ mode: "serial" });

for (const vp of VIEWPORTS) {
  test(`a customer at ${vp.width}×${vp.height}: tools, billing, connections, overview, jobs, 404`, async ({
    browser,
  }) => {
    test.setTimeout(420_000);
    const { page } = await signUp(browser, `second-${vp.name}`, vp);

    // The frame: one line of header on a phone, the sections behind a menu.
    const header = await page.locator("header").boundingBox();
    expect(header!.height).toBeLessThanOrEqual(vp.name === "mobile" ? 120 : 200);
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    if (vp.name === "mobile") {
      const main = await page.locator("main").boundingBox();
      expect(main!.y, "the content starts right below the header").toBeLessThanOrEqual(header!.height + 24);
      await expect(nav).toBeHidden();
      await page.getByTestId("menu-button").click();
      await expect(nav).toBeVisible();
      for (const link of await nav.getByRole("link").all()) await expect(link).toBeInViewport();
      await shot(page, "menu-open");
      await nav.getByRole("link", { name: "Tools" }).click();
      await expect(page).toHaveURL(/\/dashboard\/tools$/);
      await expect(nav).toBeHidden();
    } else {
      await expect(nav).toBeVisible();
      await page.goto("/dashboard/tools");
    }
    await expect(nav.getByRole("link", { name: "Operator" })).toHaveCount(0);

    // Tools: what can run has Open; what cannot sits apart, without it.
    const ready = page.getByTestId("tools-ready");
    await expect(ready.getByRole("link", { name: "Open Core Web Vitals" })).toBeVisible();
    await expect(ready.getByRole("link", { name: "Open Keyword research" })).toBeVisible();
    const unoffered = page.getByTestId("tools-unoffered");
    await expect(unoffered.getByRole("heading", { name: "Not offered on this service yet" })).toBeVisible();
    await expect(unoffered.getByTestId("tool-blocked-serp")).toBeVisible();
    await expect(unoffered.getByRole("link")).toHaveCount(0);
    await check(page, "tools");

    // Keyword research from a URL needs no provider: Launch works; seed keywords are refused before any charge.
    await page.goto("/dashboard/tools/keyword-research");
    const launch = page.getByRole("button", { name: /^Launch for/ });
    await page.getByLabel("Site URL").fill(fixtureUrl());
    await expect(launch).toBeEnabled();
    await page.getByLabel("Site URL").fill("");
    await page.getByLabel("Seed keywords").fill("cold brew");
    await expect(page.getByTestId("launch-refused")).toContainText("not offered on this service yet");
    await expect(launch).toBeDisabled();
    await check(page, "keyword-research-refused");
    await page.getByLabel("Seed keywords").fill("");
    await page.getByLabel("Site URL").fill(fixtureUrl());
    await expect(launch).toBeEnabled();
    await launch.click();
    await expect(page.getByRole("status").filter({ hasText: "Job launched" })).toBeVisible({
      timeout: 30_000,
    });

    // Core Web Vitals: the API runs it here, so the launcher does too.
    await page.goto("/dashboard/tools/core-web-vitals");
    await page
      .getByLabel("Page URL")
      .fill(`${fixtureUrl()}/a/rather/long/path/that/goes/on/and/on/index.html`);
    const cwv = page.getByRole("button", { name: /^Launch for 25 credits/ });
    await expect(cwv).toBeEnabled();
    await expect(page.getByTestId("launch-refused")).toHaveCount(0);
    await cwv.click();
    await expect(page.getByRole("status").filter({ hasText: "Job launched" })).toBeVisible({
      timeout: 30_000,
    });
    await check(page, "cwv-launched");

    // An AI tool: engines not offered here are marked so, without naming what would enable them.
    await page.goto("/dashboard/tools/ai-citation-check");
    await expect(page.getByTestId("unconfigured-note")).toContainText("Not offered on this service yet");
    await check(page, "ai-citation-check");

    // A tool that cannot run here: said plainly, nothing to launch.
    await page.goto("/dashboard/tools/serp");
    await expect(page.getByTestId("unavailable-note")).toContainText("Not offered on this service yet");
    await expect(page.getByRole("button", { name: /^Launch/ })).toHaveCount(0);
    await check(page, "serp-unoffered");

    // Jobs: the target beside each job, long paths wrapped, no sideways scrolling.
    await page.goto("/dashboard/jobs");
    await expect(page.getByTestId("job-target").first()).toContainText("/a/rather/long/path");
    await check(page, "jobs");

    // Billing without card payments: packs and prices, buying not open yet, whom to write to.
    await page.goto("/dashboard/billing");
    await expect(page.getByTestId("billing-unconfigured")).toContainText("not open yet");
    await expect(page.getByTestId("packs").getByRole("listitem")).toHaveCount(3);
    await expect(page.getByTestId("packs")).toContainText("$10.00");
    await expect(page.getByRole("button", { name: /^Buy / })).toHaveCount(0);
    const contact = process.env.OPERATOR_CONTACT_EMAIL;
    if (contact) {
      await expect(page.getByRole("link", { name: contact })).toHaveAttribute(
        "href",
        new RegExp(`^mailto:${contact}`),
      );
    } else {
      await expect(page.getByTestId("billing-unconfigured")).toContainText("contact the operator");
    }
    await expect(page.getByTestId("grant-row").first()).toContainText("Free credits on sign-up");
    await check(page, "billing");

    // Connections name no setting.
    await page.goto("/dashboard/connections");
    await check(page, "connections");

    // A domain: the typed value survives a refusal; the overview then compares like with like.
    await page.goto("/dashboard/domains");
    const field = page.getByLabel("Domain");
    await field.fill("not a domain!!");
    await page.getByRole("button", { name: "Add domain" }).click();
    await expect(page.locator("#domain-error")).toBeVisible();
    await expect(field).toHaveValue("not a domain!!");
    await field.fill(`second-${vp.name}.example.com`);
    await page.getByRole("button", { name: "Add domain" }).click();
    await expect(page.getByRole("heading", { name: `second-${vp.name}.example.com` })).toBeVisible();
    await page.goto("/dashboard");
    const timeline = page.getByTestId("domain-timeline");
    await expect(timeline.getByRole("heading")).toContainText("last 7 days against the 7 before");
    await expect(timeline.getByRole("table")).toHaveCount(0);
    await expect(timeline.getByTestId("connect-hint")).toContainText("tracking snippet");
    await expect(page.getByText("Net spend, last 7 days")).toBeVisible();
    await check(page, "overview");

    // The operator's page is not there for a customer; an unknown address is the dashboard's own 404.
    await page.goto("/dashboard/operator");
    await expect(page.getByTestId("dashboard-404")).toBeVisible();
    await page.goto("/dashboard/no-such-page");
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(page.locator("header").getByRole("link", { name: "Findable" })).toBeVisible();
    await check(page, "404");
    await page.context().close();
  });
}

test("the FAQ and Core Web Vitals results pass axe at both sizes", async ({ browser }) => {
  test.setTimeout(300_000);
  const { page } = await signUp(browser, "second-results", VIEWPORTS[0]);
  const jobs: string[] = [];
  for (const [tool, pagePath] of [
    ["faq-generator", "/faq.html"],
    ["core-web-vitals", "/good.html"],
  ] as const) {
    await page.goto(`/dashboard/tools/${tool}`);
    await page.getByLabel("Page URL").fill(`${fixtureUrl()}${pagePath}`);
    await page.getByRole("button", { name: /^Launch for/ }).click();
    await expect(page.getByTestId("job-view")).toHaveAttribute("data-status", "completed", {
      timeout: 180_000,
    });
    jobs.push((await page.getByRole("link", { name: "Open the job" }).getAttribute("href"))!);
  }
  for (const vp of VIEWPORTS) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    for (const [i, path] of jobs.entries()) {
      await page.goto(path);
      await expect(page.getByTestId("job-view")).toHaveAttribute("data-status", "completed");
      await page.getByText("Raw JSON").click();
      await check(page, i === 0 ? "faq-result" : "cwv-result");
    }
  }
  await page.context().close();
});

test("a deep link survives sign-in, and the email survives a wrong password", async ({ browser }) => {
  test.setTimeout(120_000);
  for (const vp of VIEWPORTS) {
    const page = await personPage(browser, `second-deep-${vp.name}`, vp);
    await page.goto("/dashboard/bots?days=7");
    await expect(page).toHaveURL(/\/login\?next=%2Fdashboard%2Fbots%3Fdays%3D7$/);
    const { email, password } = operatorLogin();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password" })).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await expectNoViolations(page, `login after a wrong password at ${vp.width}`);
    await shot(page, "login-wrong-password");
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/dashboard\/bots\?days=7$/, { timeout: 30_000 });
    await page.context().close();
  }
});

test("operators see every integration and what to set", async ({ browser }) => {
  test.setTimeout(120_000);
  for (const vp of VIEWPORTS) {
    const page = await personPage(browser, `second-operator-${vp.name}`, vp);
    await page.goto("/login?next=%2Fdashboard%2Foperator");
    const { email, password } = operatorLogin();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/dashboard\/operator$/, { timeout: 30_000 });
    await expect(page.getByRole("heading", { level: 1, name: "Operator" })).toBeVisible();
    const list = page.getByTestId("integrations");
    await expect(list.getByTestId("integration-dataforseo")).toContainText("DATAFORSEO_LOGIN");
    await expect(list.getByTestId("integration-stripe")).toContainText("STRIPE_SECRET_KEY");
    await expect(list.getByTestId("integration-chromium")).toContainText("Configured");
    if (!process.env.DATAFORSEO_LOGIN) {
      await expect(list.getByTestId("integration-dataforseo")).toContainText("Not configured");
    }
    await page.waitForLoadState("networkidle");
    await expectNoViolations(page, `operator page at ${vp.width}`);
    await expectNoOverflow(page, `operator page at ${vp.width}`);
    await shot(page, "operator");
    await page.context().close();
  }
});

test("the landing page says what the service costs", async ({ browser }) => {
  for (const vp of VIEWPORTS) {
    const page = await personPage(browser, `second-landing-${vp.name}`, vp);
    await page.goto("/");
    const pricing = page.getByTestId("pricing");
    await expect(pricing.getByRole("heading", { name: "What it costs" })).toBeVisible();
    await expect(pricing).toContainText("1,000 credits for $10.00");
    await expect(pricing).toContainText("URL audit");
    await check(page, "landing");
    await page.context().close();
  }
});
