// npm run lighthouse: Lighthouse performance, accessibility and best practices of the main pages, measured
// against a running production server (BASE_URL, default http://127.0.0.1:3000). It signs up a throwaway user
// through the real sign-up form and its emailed link (LH_MAIL_LOG), or signs in with LH_EMAIL / LH_PASSWORD,
// and passes the session cookie to Lighthouse. Desktop preset by default; LH_FORM_FACTOR=mobile for Lighthouse's
// mobile defaults.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { chromium } from "@playwright/test";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";

const BASE = (process.env.BASE_URL ?? "http://127.0.0.1:3000").replace(/\/$/, "");
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
const PAGES: [string, string][] = [
  ["landing", "/"],
  ["login", "/login"],
  ["overview", "/dashboard"],
  ["bots", "/dashboard/bots"],
  ["tools", "/dashboard/tools"],
  ["tool", "/dashboard/tools/audits"],
  ["jobs", "/dashboard/jobs"],
  ["citations", "/dashboard/citations"],
  ["visibility", "/dashboard/visibility"],
  ["domains", "/dashboard/domains"],
  ["connections", "/dashboard/connections"],
  ["keys", "/dashboard/keys"],
  ["webhooks", "/dashboard/webhooks"],
  ["members", "/dashboard/members"],
  ["billing", "/dashboard/billing"],
  ["account", "/dashboard/account"],
  ["operator", "/dashboard/operator"],
];

/**
 * A sign-up finishes from its emailed link: a throwaway sign-up reads it from the mail log a local SMTP server
 * writes (LH_MAIL_LOG, one JSON message a line, as e2e/serve.ts writes reports/e2e-mail-<port>.jsonl). The
 * link's page has one button that creates the account and signs in.
 */
async function signUpLink(email: string): Promise<string> {
  const log = process.env.LH_MAIL_LOG;
  if (!log)
    throw new Error("A throwaway sign-up needs LH_MAIL_LOG (or sign in with LH_EMAIL and LH_PASSWORD).");
  for (let i = 0; i < 60; i++) {
    const links = existsSync(log)
      ? readFileSync(log, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { to: string[]; links: string[] })
          .filter((m) => m.to.includes(email))
          .flatMap((m) => m.links.filter((l) => l.includes("/signup/confirm?token=")))
      : [];
    if (links.length) return links.at(-1)!;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no sign-up link for ${email} in ${log}`);
}

/** A session cookie header, from the real forms in a real browser. */
async function signIn(): Promise<string> {
  const browser = await chromium.launch({
    executablePath: CHROME,
    args: FLAGS.filter((f) => f !== "--headless=new"),
  });
  try {
    const page = await browser.newPage();
    const email = process.env.LH_EMAIL ?? `lighthouse-${Date.now()}@example.com`;
    const password = process.env.LH_PASSWORD ?? "lighthouse-password-123";
    await page.goto(`${BASE}${process.env.LH_EMAIL ? "/login" : "/signup"}`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: process.env.LH_EMAIL ? "Sign in" : "Create account" }).click();
    if (!process.env.LH_EMAIL) {
      await page.goto(await signUpLink(email));
      await page.getByRole("button", { name: "Create my account" }).click();
    }
    await page.waitForURL(/\/dashboard/);
    // A domain so that the bots page shows its charts rather than the empty state.
    await page.goto(`${BASE}/dashboard/domains`);
    await page.getByLabel("Domain").fill("lighthouse.example.com");
    await page.getByRole("button", { name: "Add domain" }).click();
    await page.getByText("Domain added.").waitFor();
    const cookies = await page.context().cookies();
    return cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  } finally {
    await browser.close();
  }
}

// LH_EXTRA_PAGES=report=/dashboard/monitors/<id> adds pages (name=path, comma-separated), e.g. a page whose
// address holds an id of the signed-in account.
for (const entry of process.env.LH_EXTRA_PAGES?.split(",") ?? []) {
  // The name ends at the first "=": a path's query string may hold more.
  const at = entry.indexOf("=");
  const name = entry.slice(0, at).trim();
  const path = entry.slice(at + 1).trim();
  if (at > 0 && name && path.startsWith("/")) PAGES.push([name, path]);
}

// LH_PAGES=billing,overview measures only the pages named (all by default).
const only = process.env.LH_PAGES?.split(",")
  .map((n) => n.trim())
  .filter(Boolean);
const selected = only?.length ? PAGES.filter(([name]) => only.includes(name)) : PAGES;

const formFactor = process.env.LH_FORM_FACTOR === "mobile" ? "mobile" : "desktop";
const cookie = await signIn();
const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: FLAGS });
const rows: { page: string; performance: number; accessibility: number; "best-practices": number }[] = [];
try {
  for (const [name, path] of selected) {
    const result = await lighthouse(
      `${BASE}${path}`,
      {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility", "best-practices"],
        // The session cookie only for signed-in pages: the landing and login pages are measured signed out.
        extraHeaders: path.startsWith("/dashboard") ? { Cookie: cookie } : {},
      },
      formFactor === "mobile" ? undefined : desktopConfig,
    );
    if (!result) throw new Error(`no Lighthouse result for ${path}`);
    const lhr = result.lhr;
    if (lhr.finalDisplayedUrl.includes("/login") && path.startsWith("/dashboard")) {
      throw new Error(`${path} redirected to /login: the session cookie was not accepted`);
    }
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    rows.push({
      page: `${name} (${path})`,
      performance: score("performance"),
      accessibility: score("accessibility"),
      "best-practices": score("best-practices"),
    });
    mkdirSync("reports/lighthouse", { recursive: true });
    writeFileSync(`reports/lighthouse/${name}-${formFactor}.json`, JSON.stringify(lhr, null, 2));
  }
} finally {
  chrome.kill();
}

console.table(rows);
const low = rows.filter((r) => r.performance < 90 || r.accessibility < 90 || r["best-practices"] < 90);
console.log(
  low.length === 0 ? "All pages score 90 or more." : `Below 90: ${low.map((r) => r.page).join(", ")}`,
);
