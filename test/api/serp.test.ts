import { afterAll, beforeAll, describe, expect, vi } from "vitest";
import { findLedgerMismatches } from "@/lib/credits/credits";
import type { DbHandle } from "@/lib/db/client";
import { JobRunner } from "@/lib/jobs/runner";
import { type FakeDataForSeo, startFakeDataForSeo } from "@/test/fakes/dataforseo";
import { apiTest } from "@/test/support/fixtures";
import { balanceOf, type TestAccount } from "../accounts";
import type { TestApi } from "../api-server";

// POST /api/v1/serp end to end: refusal before charge, the DataForSEO task sent, the page read, your domains marked.
const opts = { concurrency: 2, leaseSeconds: 30, queueTimeoutSeconds: 600, pollMs: 50 };
const test = apiTest.withAccount({ credits: 1000, domains: ["www.acme-coffee.com"] });
let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;
let fake: FakeDataForSeo;

test.beforeAll(async ({ handle: _handle, api: _api, acct: _acct }) => {
  handle = _handle;
  api = _api;
  acct = _acct;
  fake = await startFakeDataForSeo({ keywords: [] });
  vi.stubEnv("DATAFORSEO_LOGIN", "");
  vi.stubEnv("DATAFORSEO_PASSWORD", "");
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await fake?.close();
});

async function post(body: unknown) {
  const res = await fetch(`${api.url}/api/v1/serp`, {
    method: "POST",
    headers: { ...acct.headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { res, body: await res.json() };
}

async function runJob(body: unknown) {
  const before = await balanceOf(handle.db, acct.accountId);
  const created = await post(body);
  expect(created.res.status).toBe(202);
  expect(await balanceOf(handle.db, acct.accountId)).toBe(before - 5);
  const runner = new JobRunner(handle.db, opts);
  await runner.pass();
  await runner.drain();
  const res = await fetch(`${api.url}${created.body.data.pollUrl}`, { headers: acct.headers });
  return (await res.json()).data;
}

test("without DataForSEO: 400 naming the variables, nothing charged", async () => {
  const before = await balanceOf(handle.db, acct.accountId);
  const r = await post({ keyword: "cold brew coffee" });
  expect(r.res.status).toBe(400);
  expect(r.body.error.details.reason).toBe("provider_not_configured");
  expect(r.body.error.message).toMatch(/DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD/);
  expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
});

const badInputs: { name: string; body: unknown; field: string }[] = [
  { name: "no keyword", body: {}, field: "keyword" },
  { name: "empty keyword", body: { keyword: " " }, field: "keyword" },
  { name: "country not ISO", body: { keyword: "x", country: "USA" }, field: "country" },
  { name: "unknown device", body: { keyword: "x", device: "tablet" }, field: "device" },
  { name: "depth too deep", body: { keyword: "x", depth: 500 }, field: "depth" },
  {
    name: "too many domains",
    body: { keyword: "x", domains: ["a.com", "b.com", "c.com", "d.com", "e.com", "f.com"] },
    field: "domains",
  },
  { name: "unknown field", body: { keyword: "x", engine: "bing" }, field: "" },
];
for (const c of badInputs) {
  test(`400 for ${c.name}`, async () => {
    const r = await post(c.body);
    expect(r.res.status).toBe(400);
    expect(r.body.error.code).toBe("VALIDATION_ERROR");
    if (c.field) expect(JSON.stringify(r.body.error.details)).toContain(c.field);
  });
}

describe("with DataForSEO (its fake on 127.0.0.1)", () => {
  beforeAll(() => {
    vi.stubEnv("DATAFORSEO_LOGIN", fake.login);
    vi.stubEnv("DATAFORSEO_PASSWORD", fake.password);
    vi.stubEnv("DATAFORSEO_BASE_URL", fake.url);
  });

  test("organic results, features and the AI overview, with the account's domain found in both", async () => {
    const job = await runJob({
      keyword: "cold brew coffee",
      country: "gb",
      device: "MOBILE",
      domains: ["wikipedia.org"],
    });
    expect(job.status).toBe("completed");
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe("/v3/serp/google/organic/live/advanced");
    expect(sent.body).toEqual([
      {
        keyword: "cold brew coffee",
        location_name: "United Kingdom",
        language_code: "en",
        device: "mobile",
        depth: 10,
        load_async_ai_overview: true,
      },
    ]);
    const r = job.result;
    expect(r).toMatchObject({
      keyword: "cold brew coffee",
      country: "GB",
      device: "mobile",
      source: "dataforseo",
    });
    expect(r.checkedAt).toBe("2026-11-23T10:15:02.000Z");
    expect(r.features).toEqual(["ai_overview", "people_also_ask"]);
    expect(
      r.organic.map((o: { position: number; domain: string; isYours: boolean }) => [
        o.position,
        o.domain,
        o.isYours,
      ]),
    ).toEqual([
      [1, "www.coffee-review.com", false],
      [2, "shop.acme-coffee.com", true],
      [3, "en.wikipedia.org", true],
    ]);
    expect(r.aiOverview.text).toMatch(/steeping coarsely ground coffee/);
    // The element's reference and the overview's list name the same URL once.
    expect(r.aiOverview.sources.map((s: { domain: string }) => s.domain)).toEqual([
      "blog.acme-coffee.com",
      "en.wikipedia.org",
    ]);
    expect(r.aiOverview.citesYou).toBe(true);
    expect(r.yourDomains).toEqual(["acme-coffee.com", "wikipedia.org"]);
    expect(r.you).toEqual([
      { domain: "acme-coffee.com", bestPosition: 2, citedInAiOverview: true },
      { domain: "wikipedia.org", bestPosition: 3, citedInAiOverview: true },
    ]);
  });

  test("a provider failure fails the job with its code and refunds it", async () => {
    fake.failTask("/v3/serp/google/organic/live/advanced", 40501, "Invalid Field: 'location_name'.");
    const before = await balanceOf(handle.db, acct.accountId);
    const job = await runJob({ keyword: "cold brew coffee", country: "ZZ" });
    expect(job.status).toBe("failed");
    expect(job.creditsRefunded).toBe(true);
    expect(job.error.code).toBe("DATAFORSEO_INVALID_REQUEST");
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });
});
