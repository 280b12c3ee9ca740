// Named key pairs in Chromium against the production build, at desktop and phone sizes: a second pair for the
// tracking snippet, a roll that keeps the old pair working for 24 hours, then revoking the rolling pair early.
// Each step is checked against the API itself; axe-core finds no violation on the keys page.
import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { finishSignUp } from "../mail";

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

async function signUp(page: Page, email: string) {
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await finishSignUp(page, email);
}

/** The pair the page shows once; `previous` is the pair it showed before, which the new one replaces. */
async function newPair(page: Page, previous?: Record<string, string>) {
  await expect(page.getByTestId("new-key-secret")).toHaveText(/^sks_/);
  if (previous) await expect(page.getByTestId("new-key-id")).not.toHaveText(previous["x-api-key"]!);
  const keyId = (await page.getByTestId("new-key-id").textContent()) ?? "";
  const secret = (await page.getByTestId("new-key-secret").textContent()) ?? "";
  return { "x-api-key": keyId, "x-api-secret": secret };
}

for (const vp of VIEWPORTS) {
  test(`named key pairs: create, roll with a window, revoke (${vp.name})`, async ({ browser, request }) => {
    // Sign-ups are limited per client address and hour: this person comes from an address of their own (the
    // API calls through `request` stay on loopback).
    const context = await browser.newContext({
      viewport: { width: vp.width, height: vp.height },
      extraHTTPHeaders: { "x-forwarded-for": `192.0.2.${vp.width > 1000 ? 51 : 52}` },
    });
    const page = await context.newPage();
    await signUp(page, `keys-${vp.name}-${Date.now()}@example.com`);
    await page.goto("/dashboard/keys");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("button", { name: "Create", exact: true }).click();
    const main = await newPair(page);

    // A second pair for the tracking snippet, beside the first.
    await page.getByRole("button", { name: "New key pair" }).click();
    await page.locator("#key-name").fill("tracking snippet");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    const snippet = await newPair(page, main);
    expect(snippet["x-api-key"]).not.toBe(main["x-api-key"]);
    for (const headers of [main, snippet]) {
      expect((await request.get("/api/v1/credits", { headers })).status()).toBe(200);
    }
    await page.reload();
    await expect(page.getByRole("list", { name: "Working key pairs" }).getByRole("listitem")).toHaveCount(2);
    await shot(page, `keys-pairs-${vp.name}`);

    // A name already in use stays in the dialog with the reason.
    await page.getByRole("button", { name: "New key pair" }).click();
    await page.locator("#key-name").fill("tracking snippet");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await expect(page.getByText(/already active/).first()).toBeVisible();
    await page
      .getByRole("dialog", { name: "A new key pair" })
      .getByRole("button", { name: "Cancel" })
      .click();

    // Roll the snippet's pair, keeping the old one for 24 hours: both work.
    await page.getByRole("button", { name: "Roll tracking snippet" }).click();
    const rollDialog = page.getByRole("dialog", { name: "Roll “tracking snippet”?" });
    await rollDialog.getByLabel("The old pair").selectOption("24h");
    await shot(page, `keys-roll-${vp.name}`);
    await rollDialog.getByRole("button", { name: "Roll now" }).click();
    const rolled = await newPair(page, snippet);
    for (const headers of [snippet, rolled]) {
      expect((await request.get("/api/v1/credits", { headers })).status()).toBe(200);
    }
    await page.reload();
    await expect(page.getByText(/Rolling until/)).toBeVisible();
    await shot(page, `keys-rolling-${vp.name}`);
    // A soft navigation puts the new page's <title> in after its content: audit once it is there.
    await expect(page).toHaveTitle(/\S/);
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => v.id)).toEqual([]);

    // Revoking the rolling pair ends its window at once; its replacement keeps working.
    await page.getByRole("button", { name: "Revoke tracking snippet (rolling)" }).click();
    await page
      .getByRole("dialog", { name: "Revoke “tracking snippet”?" })
      .filter({ hasText: snippet["x-api-key"]! })
      .getByRole("button", { name: "Revoke now" })
      .click();
    await expect(page.getByText(/Rolling until/)).toHaveCount(0);
    expect((await request.get("/api/v1/credits", { headers: snippet })).status()).toBe(401);
    expect((await request.get("/api/v1/credits", { headers: rolled })).status()).toBe(200);
    expect((await request.get("/api/v1/credits", { headers: main })).status()).toBe(200);
  });
}
