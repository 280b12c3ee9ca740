// The flow in Chromium against the production build: sign up from the emailed link, see 100 credits, register a domain,
// audit the fixture site and read the checklist, see the balance drop, rotate the key and see the old key refused.
import { mkdirSync, readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { finishSignUp } from "../mail";

const port = process.env.E2E_PORT ?? "3210";
const SHOTS = "test-results/screenshots";
const PASSWORD = "a long enough password";

function fixtureUrl(): string {
  return (JSON.parse(readFileSync(`reports/e2e-fixture-${port}.json`, "utf8")) as { url: string }).url;
}

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function signUp(page: Page, email: string, next?: string) {
  await page.goto(next ? `/signup?next=${encodeURIComponent(next)}` : "/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
}

test.describe.configure({ mode: "serial" });

test("sign up, audit the fixture site, rotate the key", async ({ page, request }) => {
  test.setTimeout(180_000);
  const email = `dash-${Date.now()}@example.com`;

  // Every dashboard route is protected.
  await page.goto("/dashboard/keys");
  await expect(page).toHaveURL(/\/login/);
  await shot(page, "login");

  await signUp(page, email);
  // The account is created from the emailed link, its address proven: the sign-up bonus is there at once.
  await finishSignUp(page, email);
  await expect(page.getByTestId("verify-email-banner")).toHaveCount(0);
  await expect(page.getByTestId("credit-balance")).toHaveText("100");
  await expect(page.getByText("Sign-up bonus: 100 free credits")).toBeVisible();
  await shot(page, "overview-new");

  // Register a domain.
  await page.getByRole("link", { name: "Domains" }).click();
  await page.getByLabel("Domain").fill("Shop.Example.com");
  await page.getByRole("button", { name: "Add domain" }).click();
  await expect(page.getByText("Domain added.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "shop.example.com" })).toBeVisible();
  await shot(page, "domains");

  // Launch an audit of the fixture site: validation first, the cost before launch.
  await page.getByRole("link", { name: "Tools" }).click();
  await shot(page, "tools");
  await page.getByRole("link", { name: "Open URL audit" }).click();
  await expect(page.getByTestId("tool-cost")).toHaveText("50");
  await page.getByLabel("Page URL").fill("ftp://nope");
  await page.getByRole("button", { name: /Launch for 50 credits/ }).click();
  await expect(page.getByText("Must be an absolute http(s) URL.")).toBeVisible();
  await page.getByLabel("Page URL").fill(`${fixtureUrl()}/good.html`);
  await page.getByRole("button", { name: /Launch for 50 credits/ }).click();
  await expect(page.getByText(/50 credits charged, balance now 50/)).toBeVisible();
  await expect(page.getByTestId("tool-balance")).toHaveText("50");

  // The result view: a checklist of pass / warn / fail.
  const view = page.getByTestId("job-view");
  await expect(view).toHaveAttribute("data-status", "completed", { timeout: 90_000 });
  const checklist = page.getByTestId("checklist");
  await expect(checklist).toBeVisible();
  await expect(checklist.locator('li[data-status="pass"]').first()).toBeVisible();
  expect(await checklist.locator("li").count()).toBeGreaterThan(10);
  await expect(
    page.getByTestId("audit-result").getByRole("columnheader", { name: "Category" }),
  ).toBeVisible();
  await page.getByText("Raw JSON").click();
  await expect(page.locator("pre").filter({ hasText: '"checks"' })).toBeVisible();
  await shot(page, "tool-audit-result");

  // Jobs list links to the result.
  await page.getByRole("link", { name: "Jobs" }).click();
  await expect(page.getByRole("link", { name: /URL audit/ }).first()).toBeVisible();
  await shot(page, "jobs");
  await page
    .getByRole("link", { name: /URL audit/ })
    .first()
    .click();
  await expect(page.getByTestId("checklist")).toBeVisible();
  await shot(page, "job-result");

  // The balance dropped by 50.
  await page.getByRole("link", { name: "Overview" }).click();
  await expect(page.getByTestId("credit-balance")).toHaveText("50");
  await shot(page, "overview");

  // A new account has no key yet: create one (its secret is shown once), then roll it with confirmation.
  await page.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByText("This account has no active key yet.")).toBeVisible();
  await shot(page, "keys-empty");
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("new-key-secret")).toHaveText(/^sks_/);
  const oldKey = (await page.getByTestId("new-key-id").textContent()) ?? "";
  const oldSecret = (await page.getByTestId("new-key-secret").textContent()) ?? "";
  const before = await request.get("/api/v1/credits", {
    headers: { "x-api-key": oldKey, "x-api-secret": oldSecret },
  });
  expect(before.status()).toBe(200);

  // Shown once: after a reload only the key id remains.
  await page.reload();
  await expect(page.getByTestId("active-key-id")).toHaveText(oldKey);
  await expect(page.getByText(oldSecret)).toHaveCount(0);
  await shot(page, "keys");
  await page.getByRole("button", { name: "Roll Default" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  // The default is to stop the old pair at once; a window would keep it working beside the new one.
  await expect(page.getByLabel("The old pair")).toHaveValue("none");
  await shot(page, "keys-confirm");
  await page.getByRole("button", { name: "Roll now" }).click();
  await expect(page.getByTestId("new-key-secret")).toHaveText(/^sks_/);
  const newKey = (await page.getByTestId("new-key-id").textContent()) ?? "";
  const newSecret = (await page.getByTestId("new-key-secret").textContent()) ?? "";
  expect(newKey).toMatch(/^sk_live_/);
  expect(newKey).not.toBe(oldKey);
  await expect(page.getByText(/curl -s .*\/api\/v1\/credits/)).toBeVisible();
  await shot(page, "keys-rotated");

  const refused = await request.get("/api/v1/credits", {
    headers: { "x-api-key": oldKey, "x-api-secret": oldSecret },
  });
  expect(refused.status()).toBe(401);
  const accepted = await request.get("/api/v1/credits", {
    headers: { "x-api-key": newKey, "x-api-secret": newSecret },
  });
  expect(accepted.status()).toBe(200);
  expect((await accepted.json()).data.balance).toBe(50);

  // Visits sent through the API show up on the bots and citations pages.
  const now = Date.now();
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
  const gptBot =
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)";
  const browserUa =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36";
  const ingest = await request.post("/api/v1/tracking/events", {
    headers: { "x-api-key": newKey, "x-api-secret": newSecret },
    data: {
      events: [
        { domain: "shop.example.com", path: "/pricing", userAgent: gptBot, timestamp: at(3) },
        { domain: "shop.example.com", path: "/", userAgent: gptBot, timestamp: at(2) },
        {
          domain: "shop.example.com",
          path: "/blog/x",
          userAgent: browserUa,
          referrer: "https://chatgpt.com/",
          timestamp: at(1),
        },
      ],
    },
  });
  expect(ingest.status()).toBe(200);
  await page.goto("/dashboard/bots");
  await expect(page.getByRole("cell", { name: /GPTBot/ })).toContainText("AI");
  await expect(page.getByRole("cell", { name: "/pricing" })).toBeVisible();
  await expect(page.getByRole("img", { name: /^Bot visits per day/ })).toBeVisible();
  await shot(page, "bots");
  await page.goto("/dashboard/citations?days=7&limit=10");
  await expect(
    page.getByRole("group", { name: "Most recent citations" }).getByRole("cell", { name: "/blog/x" }),
  ).toBeVisible();
  await expect(page.locator(".recharts-surface").first()).toBeVisible();
  await shot(page, "citations");

  // The other pages render for a signed-in owner.
  for (const path of [
    "members",
    "tools/faq-generator",
    "tools/seo-aeo-geo-audit",
    "tools/core-web-vitals",
    "tools/backlinks-overview",
  ]) {
    await page.goto(`/dashboard/${path}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await shot(page, path.replace("/", "-"));
  }
  // Backlinks from a provider this server cannot reach: the job is charged, fails honestly and the credits come back.
  await page.getByLabel("Target domain").fill("example.com");
  await page.getByRole("button", { name: /Launch for 15 credits/ }).click();
  await expect(page.getByTestId("job-view")).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
  await expect(page.getByText("The 15 credits were refunded.")).toBeVisible();
  await shot(page, "tool-failed-refunded");
  const afterRefund = await request.get("/api/v1/credits", {
    headers: { "x-api-key": newKey, "x-api-secret": newSecret },
  });
  expect((await afterRefund.json()).data.balance).toBe(50);

  // Narrow screens: the navigation wraps above the content.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard");
  await expect(page.getByTestId("credit-balance")).toHaveText("50");
  await shot(page, "overview-mobile");
  await page.setViewportSize({ width: 1280, height: 720 });

  // Sign out: the dashboard is closed again.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login/);
});

test("an invited member can launch tools but not rotate keys or add domains", async ({ browser }) => {
  test.setTimeout(120_000);
  const owner = await browser.newPage();
  const ownerEmail = `owner-${Date.now()}@example.com`;
  await signUp(owner, ownerEmail);
  await finishSignUp(owner, ownerEmail);
  await owner.goto("/dashboard/members");
  await owner.getByRole("button", { name: "Create invite link" }).click();
  const link = (await owner.getByTestId("invite-link").textContent()) ?? "";
  expect(link).toContain("/invite/");
  await shot(owner, "members");

  const member = await browser.newPage();
  await member.goto(link);
  await shot(member, "invite");
  await member.getByRole("link", { name: "Create an account to join" }).click();
  const memberEmail = `member-${Date.now()}@example.com`;
  await member.getByLabel("Email").fill(memberEmail);
  await member.getByLabel("Password").fill(PASSWORD);
  await member.getByRole("button", { name: "Create account" }).click();
  // The emailed link signs the new member in and lands back on the invitation.
  await finishSignUp(member, memberEmail, link);
  await member.getByRole("button", { name: "Accept the invitation" }).click();
  await expect(member).toHaveURL(/\/dashboard$/);
  await expect(member.getByLabel("Account")).toContainText("(member)");
  // A member launches a tool on the shared account: the FAQ generator on the fixture's FAQ page.
  await member.goto("/dashboard/tools/faq-generator");
  await member.getByLabel("Page URL").fill(`${fixtureUrl()}/faq.html`);
  await member.getByRole("button", { name: /Launch for 20 credits/ }).click();
  await expect(member.getByTestId("job-view")).toHaveAttribute("data-status", "completed", {
    timeout: 60_000,
  });
  await expect(member.getByRole("button", { name: "Copy JSON-LD" })).toBeVisible();
  await expect(member.getByText('<script type="application/ld+json">')).toBeVisible();
  await shot(member, "tool-faq-result");

  // The owner generates an llms.txt: preview, copy and download.
  await owner.goto("/dashboard/tools/llms-txt");
  await owner.getByLabel("Homepage or key page URL").fill(`${fixtureUrl()}/good.html`);
  await owner.getByRole("button", { name: /Launch for 20 credits/ }).click();
  await expect(owner.getByTestId("job-view")).toHaveAttribute("data-status", "completed", {
    timeout: 90_000,
  });
  await expect(owner.getByRole("link", { name: "Download" })).toHaveAttribute("download", "llms.txt");
  await shot(owner, "tool-llms-txt-result");

  await member.goto("/dashboard/keys");
  await expect(
    member.getByText("Only an owner or admin can create, roll or revoke key pairs."),
  ).toBeVisible();
  await expect(member.getByRole("button", { name: "Roll Default" })).toHaveCount(0);
  await member.goto("/dashboard/domains");
  await expect(member.getByText("Only an owner or admin can add domains.")).toBeVisible();
  await owner.close();
  await member.close();
});
