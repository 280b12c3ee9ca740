// The Pages section in Chromium against the production build, at 1440×900 and 390×844: a new customer's
// domain, visits sent through the API, then the page funnel: the figures per page, sorting by a column, paging,
// the Search Console and analytics notes when nothing is connected, no sideways scrolling, and no axe-core
// violation.
import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { finishSignUp } from "../mail";

const SHOTS = "test-results/screenshots";
const PASSWORD = "a long enough password";
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "mobile", width: 390, height: 844 },
] as const;

const GPTBOT =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)";
const CHATGPT_USER =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot";
const BROWSER = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36";

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

test("the page funnel: figures, sorting, paging, both screens, axe", async ({ browser, request }) => {
  test.setTimeout(300_000);
  const context = await browser.newContext({
    viewport: VIEWPORTS[0],
    extraHTTPHeaders: { "x-forwarded-for": "198.51.100.231" },
  });
  const page = await context.newPage();
  const email = `pages-${Date.now()}@example.com`;
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await finishSignUp(page, email);

  await page.goto("/dashboard/domains");
  await page.getByLabel("Domain").fill("funnel-shop.example.com");
  await page.getByRole("button", { name: "Add domain" }).click();
  await expect(page.getByRole("heading", { name: "funnel-shop.example.com" })).toBeVisible();
  await page.goto("/dashboard/keys");
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByRole("button", { name: "Create", exact: true }).click();
  const keyId = (await page.getByTestId("new-key-id").textContent()) ?? "";
  const secret = (await page.getByTestId("new-key-secret").textContent()) ?? "";

  // 60 pages: /p/00 is crawled most; /p/01 is cited and sends people.
  const now = Date.now();
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
  const events = [];
  for (let i = 0; i < 60; i++) {
    const path = `/p/${String(i).padStart(2, "0")}`;
    for (let n = 0; n < (i === 0 ? 5 : 1); n++)
      events.push({ domain: "funnel-shop.example.com", path, userAgent: GPTBOT, timestamp: at(600 - i - n) });
  }
  events.push(
    { domain: "funnel-shop.example.com", path: "/p/01", userAgent: CHATGPT_USER, timestamp: at(30) },
    {
      domain: "funnel-shop.example.com",
      path: "/p/01?utm_source=chatgpt.com",
      userAgent: BROWSER,
      referrer: "https://chatgpt.com/",
      timestamp: at(20),
    },
  );
  const ingest = await request.post("/api/v1/tracking/events", {
    headers: { "x-api-key": keyId, "x-api-secret": secret },
    data: { events },
  });
  expect(ingest.status()).toBe(200);

  for (const vp of VIEWPORTS) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    await page.goto("/dashboard/pages?days=7");
    await expect(page.getByRole("heading", { name: "Pages", level: 1 })).toBeVisible();
    const totals = page.getByTestId("pages-totals");
    await expect(totals).toContainText("64");
    await expect(page.getByText(/Search Console: .*not connected/)).toBeVisible();
    const rows = vp.name === "desktop" ? page.getByTestId("pages-table") : page.getByTestId("pages-list");
    await expect(rows).toBeVisible();
    await expect(rows).toContainText("/p/00");
    await expectNoOverflow(page, `pages at ${vp.name}`);
    await expectNoViolations(page, `pages at ${vp.name}`);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/pages-${vp.name}.png`, fullPage: true });
  }

  // Sorting by citations on the wide screen puts the cited page first; paging reaches the last page.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/dashboard/pages?days=7");
  await page
    .getByTestId("pages-table")
    .getByRole("link", { name: /^Citations/ })
    .click();
  await expect(page).toHaveURL(/sort=citations/);
  const firstRow = page.getByTestId("pages-table").locator("tbody tr").first();
  await expect(firstRow.getByRole("rowheader")).toHaveText("/p/01");
  await page.getByRole("link", { name: /^Next 50 pages/ }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(page.getByTestId("pages-table").locator("tbody tr")).toHaveCount(10);
  await expect(page.getByRole("link", { name: /^Next 50 pages/ })).toHaveCount(0);
  await expectNoViolations(page, "pages, second page");
  await context.close();
});
