import { expect, test } from "@playwright/test";
import { E2E_BASE_URL } from "../../playwright.config";
import { e2eAccount } from "../accounts";
import { runPostmanCollection } from "../newman-run";

// The Postman collection the API generates, downloaded with a real key and run by newman against the
// production build: every request of the collection must pass its own test script.
test("newman runs GET /api/v1/postman.json against the live server without a failure", async ({
  request,
}) => {
  test.setTimeout(180_000);
  const acct = e2eAccount("newman");
  const download = await request.get("/api/v1/postman.json", { headers: acct.headers });
  expect(download.status()).toBe(200);
  const collection = await download.json();
  expect(collection.info.schema).toContain("v2.1.0");
  const requests = collection.item.flatMap((folder: { item: unknown[] }) => folder.item).length;
  expect(requests).toBeGreaterThanOrEqual(24);

  const result = await runPostmanCollection({
    baseUrl: E2E_BASE_URL,
    key: acct.key,
    secret: acct.secret,
    domain: acct.domain,
    reporters: [],
  });
  console.log(`newman: ${result.requests} requests; ${result.passed} passed, ${result.failed} failed`);
  expect(result.failures).toEqual([]);
  expect(result.requests).toBe(requests);
  expect(result.passed).toBeGreaterThanOrEqual(result.requests * 4);

  // Nothing was charged twice and nothing leaked: the collection's tool jobs are charged once each.
  const credits = await (await request.get("/api/v1/credits", { headers: acct.headers })).json();
  const spends = credits.data.recentTransactions.filter((t: { type: string }) => t.type === "spend");
  expect(spends.length).toBeGreaterThanOrEqual(9);
});
