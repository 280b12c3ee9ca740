import { afterAll, beforeAll, expect } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { suggestPrompts } from "@/lib/monitors";
import { createTestAccount, type TestAccount } from "@/test/accounts";
import { createRoutedFetch } from "@/test/fakes/ai/engines";
import { type FixtureServer, startFixtureServer } from "@/test/fixture-server";
import { dbTest } from "@/test/support/fixtures";

const test = dbTest;
let handle: DbHandle;
let site: FixtureServer;
let acct: TestAccount;

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title><meta name="description" content="${title}"></head><body><main>${body}</main></body></html>`;

beforeAll(async () => {
  site = await startFixtureServer({
    routes: {
      "/": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(
          page(
            "Acme Roasters: specialty coffee beans, roasted in Lyon",
            `<h1>Specialty coffee beans roasted in Lyon</h1>
             <p>Acme Roasters roasts specialty coffee beans every week. Our specialty coffee beans come from small farms.
             Order a coffee subscription and get fresh coffee beans delivered. Espresso blends and filter coffee.</p>
             <h2>How fresh are your coffee beans?</h2><p>Every bag is roasted to order.</p>
             <h2>Which grind should I choose for a French press?</h2><p>A coarse grind.</p>
             <a href="/subscription">Coffee subscription</a>`,
          ),
        );
      },
      "/subscription": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(
          page(
            "Coffee subscription: fresh specialty coffee every month",
            `<h1>Coffee subscription</h1><p>A coffee subscription of specialty coffee beans, espresso blends and
             filter coffee, delivered fresh. Pause your coffee subscription any time.</p>
             <h2>Can I pause my coffee subscription?</h2><p>Yes, at any time.</p>`,
          ),
        );
      },
    },
  });
});
test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  acct = await createTestAccount(handle.db, { domains: ["acme.com"] });
});

afterAll(async () => {
  await site?.close();
});

test("ten prompts at most, from the site's own questions and keyphrases, nothing invented", async () => {
  const fetch = createRoutedFetch({ "acme.com": site.url });
  const out = await suggestPrompts(handle.db, acct.accountId, "acme.com", { fetch });
  expect(out.domain).toBe("acme.com");
  expect(out.prompts.length).toBeGreaterThanOrEqual(3);
  expect(out.prompts.length).toBeLessThanOrEqual(10);
  const questions = out.prompts.filter((p) => p.source === "question").map((p) => p.prompt);
  expect(questions).toEqual(expect.arrayContaining(["How fresh are your coffee beans?"]));
  const keyphrases = out.prompts.filter((p) => p.source === "keyphrase").map((p) => p.prompt);
  expect(keyphrases.some((p) => /coffee/.test(p))).toBe(true);
  expect(new Set(out.prompts.map((p) => p.prompt.toLowerCase())).size).toBe(out.prompts.length);
});

test("a domain not on the account is refused; an unreadable site is a clear 400", async () => {
  await expect(suggestPrompts(handle.db, acct.accountId, "stranger.com")).rejects.toMatchObject({
    code: "FORBIDDEN_SCOPE",
  });
  const other = await createTestAccount(handle.db, { domains: ["unreachable.example"] });
  await expect(
    suggestPrompts(handle.db, other.accountId, "unreachable.example", { fetch: createRoutedFetch({}) }),
  ).rejects.toMatchObject({ code: "VALIDATION_ERROR", details: { reason: "site_unreadable" } });
});
