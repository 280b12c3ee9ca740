// The bots page in Chromium against the production build, at desktop and phone sizes: a new owner sends bot
// visits through the API (this week's and three weeks old), sees the top pages follow the period, filters the
// page to a bot (its pages and daily series) and to a page (its bots) by following rows, with the filter in the
// address and shown as a removable chip, also with JavaScript off. The top-bots table fits its card, the page
// never scrolls sideways, and axe-core finds no violation.
import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { finishSignUp } from "../mail";

const SHOTS = "test-results/screenshots";
const PASSWORD = "a long enough password";
const DAY = 86_400_000;

const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

const UA = {
  gptbot:
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)",
  googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  chatgptUser:
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
};

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/bots-${name}.png`, fullPage: true });
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

/** The table's scrolling box shows all of its columns without scrolling. */
async function expectTableFits(page: Page, name: string) {
  const box = page.getByRole("group", { name });
  const overflow = await box.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
}

/** The rows of a named table as [first cell, second cell] texts. */
async function rowsOf(page: Page, name: string): Promise<string[][]> {
  const rows = page.getByRole("group", { name }).locator("tbody tr");
  return rows.evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].slice(0, 2).map((td) => (td.textContent ?? "").trim())),
  );
}

for (const vp of VIEWPORTS) {
  test.describe(`at ${vp.width}×${vp.height}`, () => {
    test.use({ viewport: { width: vp.width, height: vp.height } });

    test("top pages follow the period; rows filter the page to a bot or a page", async ({
      browser,
      request,
    }) => {
      // Sign-ups are limited per client address and hour: this person comes from an address of their own (the
      // API calls through `request` stay on loopback).
      const context = await browser.newContext({
        viewport: { width: vp.width, height: vp.height },
        extraHTTPHeaders: { "x-forwarded-for": `192.0.2.${vp.width > 1000 ? 61 : 62}` },
      });
      const page = await context.newPage();
      test.setTimeout(240_000);
      const email = `bots-${vp.name}-${Date.now()}@example.com`;
      const domain = `${vp.name}-${Date.now()}.bots.example.com`;
      await page.goto("/signup");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Create account" }).click();
      await finishSignUp(page, email);

      await page.goto("/dashboard/domains");
      await page.getByLabel("Domain").fill(domain);
      await page.getByRole("button", { name: "Add domain" }).click();
      await expect(page.getByText("Domain added.")).toBeVisible();

      await page.goto("/dashboard/keys");
      await page.getByRole("button", { name: "Create key" }).click();
      await page.getByRole("button", { name: "Create", exact: true }).click();
      await expect(page.getByTestId("new-key-secret")).toHaveText(/^sks_/);
      const headers = {
        "x-api-key": (await page.getByTestId("new-key-id").textContent()) ?? "",
        "x-api-secret": (await page.getByTestId("new-key-secret").textContent()) ?? "",
      };

      // This week: GPTBot crawls /pricing three times (once with a query string; once from OpenAI's published
      // range, once from an address OpenAI does not use) and / once; Googlebot / twice; a ChatGPT user's fetch
      // of /pricing. Three weeks ago: GPTBot crawls /old four times.
      const now = Date.now();
      const at = (daysAgo: number, minutes = 5) =>
        new Date(now - daysAgo * DAY - minutes * 60_000).toISOString();
      const ev = (path: string, userAgent: string, timestamp: string, ip?: string) => ({
        ...(ip ? { ip } : {}),
        domain,
        path,
        userAgent,
        timestamp,
      });
      const ingest = await request.post("/api/v1/tracking/events", {
        headers,
        data: {
          events: [
            ev("/pricing", UA.gptbot, at(0), "20.171.206.10"),
            ev("/pricing?ref=mail", UA.gptbot, at(1), "8.8.8.8"),
            ev("/pricing", UA.gptbot, at(2)),
            ev("/", UA.gptbot, at(3)),
            ev("/", UA.googlebot, at(1)),
            ev("/", UA.googlebot, at(2)),
            ev("/pricing", UA.chatgptUser, at(0, 10)),
            ev("/old", UA.gptbot, at(20)),
            ev("/old", UA.gptbot, at(21)),
            ev("/old", UA.gptbot, at(22)),
            ev("/old", UA.gptbot, at(22, 30)),
          ],
        },
      });
      expect(ingest.status()).toBe(200);
      expect((await ingest.json()).data.accepted).toBe(11);

      // The last 7 days: top pages are this week's AI crawls only.
      await page.goto(`/dashboard/bots?domain=${domain}&days=7`);
      expect(await rowsOf(page, "Top pages")).toEqual([
        ["/pricing", "3"],
        ["/", "1"],
      ]);
      await expect(page.getByRole("img", { name: /^Bot visits per day: 7 in 7 days/ })).toBeVisible();
      await expect(page.getByTestId("period-visits")).toHaveText("7");

      // The period changes them: the last 30 days put /old first.
      await page.getByLabel("Period").selectOption("30");
      await page.getByRole("button", { name: "Show", exact: true }).click();
      await expect(page).toHaveURL(/days=30/);
      expect(await rowsOf(page, "Top pages")).toEqual([
        ["/old", "4"],
        ["/pricing", "3"],
        ["/", "1"],
      ]);
      await expect(page.getByTestId("period-visits")).toHaveText("11");
      const gpt = page.getByRole("group", { name: "Top bots" }).getByRole("row", { name: /GPTBot/ });
      await expect(gpt).toContainText("AI training");
      await expect(gpt.getByRole("cell").nth(1)).toHaveText("8");
      // Verification names the deciding method, and the spoofed visits apart.
      await expect(gpt.getByRole("cell").nth(2)).toHaveText("✓ 1 verified by IP range⚠ 1 spoofed");
      await expect(
        page.getByRole("group", { name: "Top bots" }).getByRole("row", { name: /Googlebot/ }),
      ).toContainText("not verified");
      if (vp.name === "desktop") await expectTableFits(page, "Top bots");
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
      await shot(page, `${vp.name}-30-days`);

      // A bot: its pages and its daily series; the period stays.
      await page.getByRole("link", { name: "GPTBot", exact: true }).click();
      await expect(page).toHaveURL(/bot=GPTBot/);
      await expect(page).toHaveURL(/days=30/);
      await expect(page.getByText("Bot: GPTBot")).toBeVisible();
      await expect(page.getByTestId("period-visits")).toHaveText("8");
      await expect(page.getByTestId("bot-verified")).toHaveText("1");
      await expect(page.getByTestId("bot-spoofed")).toHaveText("1");
      await expect(page.getByRole("img", { name: /^GPTBot visits per day: 8 in 30 days/ })).toBeVisible();
      expect(await rowsOf(page, "Pages GPTBot visited")).toEqual([
        ["/old", "4"],
        ["/pricing", "3"],
        ["/", "1"],
      ]);
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
      await shot(page, `${vp.name}-bot`);

      // The period keeps the filter: the last 7 days drop /old.
      await page.getByLabel("Period").selectOption("7");
      await page.getByRole("button", { name: "Show", exact: true }).click();
      await expect(page).toHaveURL(/days=7/);
      expect(await rowsOf(page, "Pages GPTBot visited")).toEqual([
        ["/pricing", "3"],
        ["/", "1"],
      ]);

      // A page: its bots (the user-triggered fetch is a bot visit, not an AI crawl).
      await page.getByRole("link", { name: "/pricing", exact: true }).click();
      await expect(page).toHaveURL(/page=%2Fpricing/);
      await expect(page.getByText("Page: /pricing")).toBeVisible();
      await expect(page.getByTestId("page-crawls")).toHaveText("3");
      expect(await rowsOf(page, "Bots that visited this page")).toEqual([
        ["GPTBotAI", "3"],
        ["ChatGPT-UserAI", "1"],
      ]);
      await expect(
        page.getByRole("img", { name: /^AI crawls of \/pricing per day: 3 in 7 days/ }),
      ).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
      await shot(page, `${vp.name}-page`);

      // The chip removes the filter.
      await page.getByRole("link", { name: "Remove the page filter" }).click();
      await expect(page).not.toHaveURL(/page=/);
      await expect(page.getByRole("group", { name: "Top bots" })).toBeVisible();

      // Without JavaScript the filters are plain links.
      const noJs = await browser.newContext({
        javaScriptEnabled: false,
        viewport: { width: vp.width, height: vp.height },
        storageState: await page.context().storageState(),
      });
      try {
        const p = await noJs.newPage();
        await p.goto(`/dashboard/bots?domain=${domain}&days=30`);
        await p.getByRole("link", { name: "/old", exact: true }).click();
        await expect(p).toHaveURL(/page=%2Fold/);
        expect(await rowsOf(p, "Bots that visited this page")).toEqual([["GPTBotAI", "4"]]);
        await p.getByRole("link", { name: "GPTBot", exact: true }).click();
        await expect(p).toHaveURL(/bot=GPTBot/);
        await expect(p.getByText("Bot: GPTBot")).toBeVisible();
      } finally {
        await noJs.close();
      }
    });
  });
}
