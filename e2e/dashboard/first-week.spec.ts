// A customer's first week, in Chromium against the production build, at 1440×900 and 390×844: the onboarding
// checklist ticking live, domains pasted as URLs and removed with their data, the team managed, the API docs
// with the customer's key id, the balance refreshed after a refund, the navigation and tables on a phone,
// and axe-core finding no violation on any dashboard page. Screenshots go to test-results/screenshots.
import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { finishSignUp, mailTo } from "../mail";

const SHOTS = "test-results/screenshots";
const PASSWORD = "a long enough password";
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "mobile", width: 390, height: 844 },
] as const;
/** Pages the navigation does not link to directly, walked with every section it does link to. */
const MORE_PAGES = ["/dashboard/tools/audits", "/dashboard/tools/ai-citation-check"];

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${SHOTS}/week-${name}-${width}.png`, fullPage: true });
}

type Viewport = { width: number; height: number };

/**
 * A browser context of one person's own. Each person comes from an address of their own (documentation range):
 * sign-ups are limited per address per hour, and the other specs have used 127.0.0.1's.
 */
async function personPage(browser: Browser, label: string, viewport: Viewport = VIEWPORTS[0]) {
  let hash = 0;
  for (const c of label) hash = (hash * 31 + c.charCodeAt(0)) % 250;
  // A page of its own context: axe-core's Playwright builder needs one.
  const context = await browser.newContext({
    viewport: { width: viewport.width, height: viewport.height },
    extraHTTPHeaders: { "x-forwarded-for": `198.51.100.${hash + 1}` },
  });
  return context.newPage();
}

/**
 * Fills in and sends the sign-up form the page shows, then follows the emailed link: signed in, on `landing`
 * (the sign-up's `next`, else the overview).
 */
async function fillSignUp(page: Page, email: string, landing?: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await finishSignUp(page, email, landing);
}

async function signUp(browser: Browser, label: string, viewport?: Viewport) {
  const page = await personPage(browser, label, viewport);
  await page.goto("/signup");
  const email = `${label}-${Date.now()}@example.com`;
  await fillSignUp(page, email);
  return { page, email };
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

/** Nothing wider than the screen: the page itself never scrolls sideways. */
async function expectNoOverflow(page: Page, where: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, where).toBeLessThanOrEqual(0);
}

test.describe.configure({ mode: "serial" });

/** What the first test leaves for the page walk and the domain removal: the pages and the signed-in session. */
const week: { pages: string[]; storage?: Awaited<ReturnType<BrowserContext["storageState"]>> } = {
  pages: [],
};

test("onboarding ticks live, domains, keys, docs and a refund without reload", async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const { page } = await signUp(browser, "week");
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
  const steps = page.getByTestId("onboarding");
  await expect(steps.locator('li[data-step="domain"]')).toHaveAttribute("data-done", "false");
  await shot(page, "overview-new");

  // A pasted URL with www. becomes the domain meant; the token has copy buttons.
  await page.goto("/dashboard/domains");
  await page.getByLabel("Domain").fill("https://www.Week-Shop.example.com/pricing?utm=x");
  await page.getByRole("button", { name: "Add domain" }).click();
  await expect(page.getByRole("heading", { name: "week-shop.example.com" })).toBeVisible();
  await expect(
    page.getByRole("button", { name: "Copy the verification token for week-shop.example.com" }),
  ).toBeVisible();
  await shot(page, "domains");

  // A key, then the docs show it in every example.
  await page.goto("/dashboard/keys");
  await expect(page.getByRole("link", { name: "API docs" }).first()).toHaveAttribute("href", "/docs/api");
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByRole("button", { name: "Create", exact: true }).click();
  const keyId = (await page.getByTestId("new-key-id").textContent()) ?? "";
  const secret = (await page.getByTestId("new-key-secret").textContent()) ?? "";
  expect(keyId).toMatch(/^sk_live_/);
  await page.goto("/docs/api");
  await expect(page.getByTestId("docs-key-note")).toContainText(keyId);
  const firstSamples = page.getByRole("tablist").first();
  await expect(firstSamples.getByRole("tab", { name: "curl" })).toHaveAttribute("aria-selected", "true");
  await expect(
    page
      .locator("pre")
      .filter({ hasText: `x-api-key: ${keyId}` })
      .first(),
  ).toBeVisible();
  await firstSamples.getByRole("tab", { name: "Python" }).click();
  await expect(page.locator("pre").filter({ hasText: "import requests" }).first()).toBeVisible();
  await expect(page.getByText("Example response").first()).toBeVisible();
  await shot(page, "docs");

  // The overview waits for the first event and ticks when it arrives, without a reload.
  await page.goto("/dashboard");
  const eventStep = steps.locator('li[data-step="event"]');
  await expect(eventStep).toHaveAttribute("data-done", "false");
  await expect(eventStep).toContainText("Waiting for the first event");
  const gptBot =
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)";
  const ingest = await request.post("/api/v1/tracking/events", {
    headers: { "x-api-key": keyId, "x-api-secret": secret },
    data: {
      events: [
        {
          domain: "week-shop.example.com",
          path: "/",
          userAgent: gptBot,
          timestamp: new Date().toISOString(),
        },
        {
          domain: "www.week-shop.example.com",
          path: "/pricing",
          userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36",
          referrer: "https://www.perplexity.ai/",
          timestamp: new Date().toISOString(),
        },
      ],
    },
  });
  expect(ingest.status()).toBe(200);
  await expect(eventStep).toHaveAttribute("data-done", "true", { timeout: 20_000 });
  await expect(page.getByTestId("onboarding-progress")).toContainText("first event received");
  await page.reload();
  await expect(page.getByTestId("ai-bot-visits")).toHaveText("1");
  await expect(page.getByTestId("citations-count")).toHaveText("1");
  await shot(page, "overview-tracking");

  // Bots: purposes in words, cards for the chosen period; citations: top pages and trend.
  await page.goto("/dashboard/bots?days=7");
  await expect(page.getByTestId("period-visits")).toHaveText("1");
  await expect(page.getByRole("cell", { name: "AI training" })).toBeVisible();
  await shot(page, "bots");
  await page.goto("/dashboard/citations?days=7");
  await expect(
    page.getByRole("group", { name: "Top cited pages" }).getByRole("cell", { name: "/pricing" }),
  ).toBeVisible();
  await expect(page.getByTestId("citation-trend")).toContainText("citations");
  await shot(page, "citations");

  // A job that fails is refunded and the balance on the page follows without a reload.
  await page.goto("/dashboard/tools/backlinks-overview");
  await expect(page.getByTestId("tool-balance")).toHaveText("100");
  await page.getByLabel("Target domain").fill("example.com");
  await page.getByRole("button", { name: /Launch for 15 credits/ }).click();
  // The runner is woken at once, so the job may fail and be refunded before the charged balance (85) is drawn:
  // the ledger below shows both movements.
  await expect(page.getByTestId("job-view")).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
  await expect(page.getByTestId("tool-balance")).toHaveText("100", { timeout: 10_000 });
  await expect(page.getByRole("heading", { name: "Backlinks overview" }).last()).toBeVisible();
  await shot(page, "refunded");

  // Transactions in plain words with a short link to the job.
  await page.goto("/dashboard");
  const transactions = page.getByRole("group", { name: "Recent transactions" });
  await expect(transactions.getByText("Refund: Backlinks overview")).toBeVisible();
  await expect(transactions.getByRole("link", { name: /^job [0-9a-f]{8}$/ }).first()).toBeVisible();
  await page.goto("/dashboard/jobs");
  await expect(page.getByRole("link", { name: /Backlinks overview/ }).first()).toBeVisible();

  // The pages the walk below visits, read from the navigation and the tools list (a new section or tool is
  // walked too), and the refunded job's own page; the walk signs in as this person.
  const jobPath = await page
    .getByRole("link", { name: /Backlinks overview/ })
    .first()
    .getAttribute("href");
  expect(jobPath).toMatch(/^\/dashboard\/jobs\/[0-9a-f-]+$/);
  const hrefs = async (where: ReturnType<Page["getByRole"]>) =>
    (
      await where.getByRole("link").evaluateAll((links) => links.map((l) => l.getAttribute("href") ?? ""))
    ).filter((h) => h.startsWith("/"));
  const sections = await hrefs(page.getByRole("navigation", { name: "Dashboard" }));
  expect(sections).toContain("/dashboard/billing");
  await page.goto("/dashboard/tools");
  const tools = (await hrefs(page.getByRole("main"))).filter((h) => h.startsWith("/dashboard/tools/"));
  expect(tools.length).toBeGreaterThanOrEqual(10);
  week.pages = [...new Set([...sections, ...MORE_PAGES, ...tools, jobPath!])];
  week.storage = await page.context().storageState();
  await page.context().close();
});

// Every page at both sizes: no axe violation, no sideways scrolling, every section of the navigation in view
// (on a phone once its menu is opened).
for (const vp of VIEWPORTS) {
  test(`every page at ${vp.width}×${vp.height}: axe-core, no sideways scrolling, the navigation in view`, async ({
    browser,
  }) => {
    // Some thirty pages checked by axe-core on a shared machine.
    test.setTimeout(900_000);
    expect(week.pages.length, "the pages collected by the first test").toBeGreaterThan(20);
    const context = await browser.newContext({ viewport: vp, storageState: week.storage });
    const page = await context.newPage();
    for (const path of week.pages) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await page.waitForLoadState("networkidle");
      await expectNoViolations(page, `${path} at ${vp.width}`);
      await expectNoOverflow(page, `${path} at ${vp.width}`);
      await shot(page, path.replaceAll("/", "_").slice(1));
      if (path.startsWith("/dashboard")) {
        const nav = page.getByRole("navigation", { name: "Dashboard" });
        // On a phone the header is one line and the sections open from its menu button.
        const menu = page.getByTestId("menu-button");
        if (await menu.isVisible()) {
          expect((await page.locator("header").boundingBox())!.height, path).toBeLessThanOrEqual(120);
          await menu.click();
        }
        for (const link of await nav.getByRole("link").all()) await expect(link).toBeInViewport();
        await expect(nav.locator('[aria-current="page"]')).toBeInViewport();
      }
    }
    await context.close();
  });
}

test("a domain removed with its data, after typing its name", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: VIEWPORTS[1], storageState: week.storage });
  const page = await context.newPage();
  await page.goto("/dashboard/domains");
  await page.getByText("Remove this domain").click();
  const remove = page.getByRole("button", { name: "Remove week-shop.example.com" });
  await expect(remove).toBeDisabled();
  await page.getByLabel("Type week-shop.example.com to confirm").fill("week-shop.example.com");
  await remove.click();
  await expect(page.getByText("No domains yet.")).toBeVisible();
  await shot(page, "domain-removed");
  await context.close();
});

// The team at both sizes: invitations emailed, listed and revoked; the invitee follows the emailed link, signs
// up, verifies the address and joins; roles changed, a member removed; the last owner can be neither demoted
// nor removed, not even from a page drawn while there were two owners.
for (const vp of VIEWPORTS) {
  test(`team at ${vp.width}×${vp.height}: invitations, roles, removal, the last owner kept`, async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const { page: owner, email: ownerEmail } = await signUp(browser, `team-owner-${vp.name}`, vp);
    await expect(owner).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
    await owner.goto("/dashboard/members");
    await expect(owner.getByText("(last owner)")).toBeVisible();
    await expect(owner.getByRole("button", { name: /^Remove / })).toHaveCount(0);
    await expect(owner.getByLabel(`Role of ${ownerEmail}`, { exact: true })).toHaveCount(0);

    // Two invitations emailed: one revoked (its link then fails), one used.
    const pending = owner.getByRole("group", { name: "Pending invitations" });
    const invite = async (email: string, role: string) => {
      await owner.getByRole("textbox", { name: /^Email/ }).fill(email);
      await owner.getByLabel("Role", { exact: true }).selectOption(role);
      await owner.getByRole("button", { name: "Create invite link" }).click();
      await expect(
        owner.getByRole("status").filter({ hasText: `Invitation emailed to ${email}` }),
      ).toBeVisible({ timeout: 30_000 });
      await expect(pending.getByRole("cell", { name: email, exact: true })).toBeVisible();
      const mail = await mailTo(email, /invited/);
      const link = mail.links.find((l) => l.includes("/invite/"));
      expect(link, `invitation link to ${email}`).toBeTruthy();
      expect(mail.text).toContain(role === "admin" ? "as an admin" : `as a ${role}`);
      return link!;
    };
    const stamp = Date.now();
    const revokedEmail = `team-revoked-${vp.name}-${stamp}@example.com`;
    const memberEmail = `team-member-${vp.name}-${stamp}@example.com`;
    const revokedLink = await invite(revokedEmail, "admin");
    const link = await invite(memberEmail, "member");
    // A header row and the two invitations, newest first.
    await expect(pending.getByRole("row")).toHaveCount(3);
    await expect(pending.getByRole("row").nth(1)).toContainText(memberEmail);
    await shot(owner, "members-pending");
    await pending.getByRole("button", { name: `Revoke the invitation ${revokedEmail}` }).click();
    await expect(pending.getByRole("cell", { name: revokedEmail, exact: true })).toHaveCount(0);
    await expect(pending.getByRole("row")).toHaveCount(2);
    await owner.reload();
    await expect(pending.getByRole("cell", { name: revokedEmail, exact: true })).toHaveCount(0);
    await expect(pending.getByRole("cell", { name: memberEmail, exact: true })).toBeVisible();

    // The invitee: the revoked link is refused; the other one leads to sign-up and back to the invitation.
    const member = await personPage(browser, `team-member-${vp.name}`, vp);
    await member.goto(revokedLink);
    await expect(member.getByText("This invite link has expired or was already used.")).toBeVisible();
    await member.goto(link);
    await expect(member.getByRole("heading", { name: /^Join / })).toBeVisible();
    await expect(member.getByText("You are invited as member.")).toBeVisible();
    await shot(member, "invite-open");
    await member.getByRole("link", { name: "Create an account to join" }).click();
    await expect(member).toHaveURL(/\/signup\?next=/);
    // The emailed link creates the account (its own free credits) and lands back on the invitation.
    await fillSignUp(member, memberEmail, link);
    await expect(member.getByRole("button", { name: "Accept the invitation" })).toBeVisible();
    await member.goto("/dashboard/billing");
    await expect(member.getByTestId("billing-balance")).toHaveText("100");
    await member.goto(link);
    await member.getByRole("button", { name: "Accept the invitation" }).click();
    await expect(member).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
    // Now working in the owner's account, as a member, with their own account a switch away.
    await expect(member.getByLabel("Account")).toBeVisible();
    await expect(member.getByLabel("Account").locator("option:checked")).toContainText("(member)");
    await member.goto("/dashboard/keys");
    await expect(member.getByRole("button", { name: "Create key" })).toHaveCount(0);
    // The link is used up.
    await member.goto(link);
    await expect(member.getByText("This invite link has expired or was already used.")).toBeVisible();

    // The owner makes them an admin: they manage keys, but cannot touch the owner.
    await owner.reload();
    await expect(owner.getByText("No pending invitations.")).toBeVisible();
    await owner.getByLabel(`Role of ${memberEmail}`, { exact: true }).selectOption("admin");
    await owner.getByRole("button", { name: `Save the role of ${memberEmail}` }).click();
    await expect(owner.getByText("Role changed.")).toBeVisible();
    await member.goto("/dashboard/keys");
    await expect(member.getByRole("button", { name: "Create key" })).toBeVisible();
    await member.goto("/dashboard/members");
    await expect(member.getByLabel(`Role of ${ownerEmail}`, { exact: true })).toHaveCount(0);
    await expect(member.getByRole("button", { name: `Remove ${ownerEmail}` })).toHaveCount(0);
    await expect(member.getByLabel(`Role of ${memberEmail}`, { exact: true })).toBeVisible();
    await expect(member.getByLabel(`Role of ${memberEmail}`, { exact: true }).locator("option")).toHaveText([
      "admin",
      "member",
    ]);

    // Two owners: each may now step down, but only one of them.
    await owner.reload();
    await owner.getByLabel(`Role of ${memberEmail}`, { exact: true }).selectOption("owner");
    await owner.getByRole("button", { name: `Save the role of ${memberEmail}` }).click();
    await expect(owner.getByText("Role changed.")).toBeVisible();
    await owner.reload();
    await expect(owner.getByText("(last owner)")).toHaveCount(0);
    await expect(owner.getByLabel(`Role of ${ownerEmail}`, { exact: true })).toBeVisible();
    await member.reload();
    await member.getByLabel(`Role of ${memberEmail}`, { exact: true }).selectOption("admin");
    await member.getByRole("button", { name: `Save the role of ${memberEmail}` }).click();
    await expect(member.getByText("Role changed.")).toBeVisible();
    // The owner's page still offers what was possible with two owners; the server refuses both.
    await owner.getByLabel(`Role of ${ownerEmail}`, { exact: true }).selectOption("member");
    await owner.getByRole("button", { name: `Save the role of ${ownerEmail}` }).click();
    await expect(owner.getByText("The account needs at least one owner")).toBeVisible();
    await owner.getByRole("button", { name: `Remove ${ownerEmail}` }).click();
    await owner.getByRole("button", { name: "Remove now" }).click();
    await expect(owner.getByText("The account needs at least one owner")).toHaveCount(2);
    await shot(owner, "members-last-owner-refused");
    await owner.reload();
    await expect(owner.getByText("(last owner)")).toBeVisible();
    await expect(owner.getByLabel(`Role of ${ownerEmail}`, { exact: true })).toHaveCount(0);
    await expect(owner.getByText(`${ownerEmail} (you)`)).toBeVisible();

    await expectNoViolations(owner, `members at ${vp.width}`);
    await expectNoOverflow(owner, `members at ${vp.width}`);
    await shot(owner, "members");

    // The owner removes them: back to their own account only, no account switcher any more.
    await owner.getByRole("button", { name: `Remove ${memberEmail}` }).click();
    await owner.getByRole("button", { name: "Remove now" }).click();
    await expect(owner.getByText(memberEmail)).toHaveCount(0);
    await expect(owner.getByText("(last owner)")).toBeVisible();
    await member.goto("/dashboard");
    await expect(member.getByLabel("Account")).toHaveCount(0);
    await expect(member.getByRole("banner")).toContainText("· owner");
    await member.goto("/dashboard/members");
    await expect(member.getByText(ownerEmail)).toHaveCount(0);
    await shot(owner, "members-removed");
    await owner.context().close();
    await member.context().close();
  });
}
