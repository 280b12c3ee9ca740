import path from "node:path";
import { afterAll, beforeAll, describe, expect, vi } from "vitest";
import { findLedgerMismatches } from "@/lib/credits/credits";
import type { DbHandle } from "@/lib/db/client";
import { JobRunner } from "@/lib/jobs/runner";
import { importWebgraph } from "@/lib/webgraph";
import type { TestAccount } from "@/test/accounts";
import type { TestApi } from "@/test/api-server";
import { type FakeDataForSeo, startFakeDataForSeo } from "@/test/fakes/dataforseo";
import type { FixtureServer } from "@/test/fixture-server";
import { startSiteFixture } from "@/test/fixtures/site/server";
import { apiTest } from "@/test/support/fixtures";
import { balanceOf } from "../accounts";
import { ledgerFor } from "../jobs-helpers";

// The keyword and backlink tools end to end: REST endpoint, charge, job runner, result, refund.
const WEBGRAPH = path.join(import.meta.dirname, "../fixtures/webgraph");
const opts = { concurrency: 2, leaseSeconds: 30, queueTimeoutSeconds: 600, pollMs: 50 };
const test = apiTest.withAccount({ credits: 10_000 });
let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;
test.beforeAll(({ handle: _handle, api: _api, acct: _acct }) => {
  handle = _handle;
  api = _api;
  acct = _acct;
});
let site: FixtureServer;
let fake: FakeDataForSeo;

beforeAll(async () => {
  site = await startSiteFixture();
  fake = await startFakeDataForSeo({
    keywords: [
      { keyword: "cold brew", searchVolume: 90500, cpc: 1.1, difficulty: 52, intent: "informational" },
      { keyword: "cold brew coffee", searchVolume: 74000, cpc: 1.2, difficulty: 48, intent: "informational" },
      { keyword: "cold brew maker", searchVolume: 22000, cpc: 0.9, difficulty: 35, intent: "commercial" },
    ],
  });
  // The fixture site lives on 127.0.0.1.
  vi.stubEnv("ALLOW_PRIVATE_TARGETS", "loopback");
  withoutProvider();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await site?.close();
  await fake?.close();
});

function withProvider(baseUrl = fake.url) {
  vi.stubEnv("DATAFORSEO_LOGIN", fake.login);
  vi.stubEnv("DATAFORSEO_PASSWORD", fake.password);
  vi.stubEnv("DATAFORSEO_BASE_URL", baseUrl);
}
function withoutProvider() {
  vi.stubEnv("DATAFORSEO_LOGIN", "");
  vi.stubEnv("DATAFORSEO_PASSWORD", "");
  vi.stubEnv("DATAFORSEO_BASE_URL", "");
}

async function post(tool: string, body: unknown) {
  const res = await fetch(`${api.url}/api/v1/${tool}`, {
    method: "POST",
    headers: { ...acct.headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { res, body: await res.json() };
}

/** Creates a job over REST, runs it with the real runner and tools, and answers GET /jobs/{id}. */
async function runJob(tool: string, body: unknown, expectedCharge: number) {
  const before = await balanceOf(handle.db, acct.accountId);
  const created = await post(tool, body);
  expect(created.res.status).toBe(202);
  expect(await balanceOf(handle.db, acct.accountId)).toBe(before - expectedCharge);
  const runner = new JobRunner(handle.db, opts);
  await runner.pass();
  await runner.drain();
  const res = await fetch(`${api.url}${created.body.data.pollUrl}`, { headers: acct.headers });
  return { job: (await res.json()).data, before };
}

async function expectRefusedBeforeCharge(tool: string, body: unknown, mention: RegExp) {
  const before = await balanceOf(handle.db, acct.accountId);
  const r = await post(tool, body);
  expect(r.res.status).toBe(400);
  expect(r.body.error.code).toBe("VALIDATION_ERROR");
  expect(r.body.error.details.reason).toBe("provider_not_configured");
  expect(r.body.error.message).toMatch(mention);
  expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
}

describe("without a keyword data provider or a web graph", () => {
  test("keyword research from a URL completes from the site alone, with no invented metrics", async () => {
    const { job } = await runJob("keyword-research", { url: `${site.url}/faq.html` }, 50);
    expect(job.status).toBe("completed");
    expect(job.result).toMatchObject({
      mode: "url",
      source: "extractive",
      metrics: null,
      metricsSource: null,
    });
    const phrases = job.result.keyphrases.slice(0, 10).map((k: { phrase: string }) => k.phrase.toLowerCase());
    expect(phrases).toContain("cold brew");
    expect(job.result.topics.length).toBeGreaterThan(0);
  });

  test("seed keywords, keyword metrics, backlinks and domain authority are 400 before any charge", async () => {
    await expectRefusedBeforeCharge("keyword-research", { keywords: ["cold brew"] }, /DATAFORSEO_LOGIN/);
    await expectRefusedBeforeCharge("keyword-metrics", { keywords: ["cold brew"] }, /DATAFORSEO_PASSWORD/);
    await expectRefusedBeforeCharge("backlinks-overview", { target: "example.com" }, /import-webgraph/);
    await expectRefusedBeforeCharge("domain-authority", { domains: ["example.com"] }, /import-webgraph/);
  });
});

describe("with DataForSEO configured (its fake on 127.0.0.1)", () => {
  beforeAll(() => withProvider());
  afterAll(() => withoutProvider());

  test("keyword research from seeds completes with the provider's figures and says so", async () => {
    const { job } = await runJob("keyword-research", { keywords: ["cold brew"] }, 50);
    expect(job.status).toBe("completed");
    expect(job.result).toMatchObject({ mode: "keywords", seeds: ["cold brew"], metricsSource: "dataforseo" });
    expect(job.result.metrics[0]).toMatchObject({
      keyword: "cold brew",
      searchVolume: 90500,
      difficulty: 52,
    });
  });

  test("keyword research from a URL adds metrics for its top phrases", async () => {
    const { job } = await runJob("keyword-research", { url: `${site.url}/faq.html` }, 50);
    expect(job.status).toBe("completed");
    expect(job.result.metricsSource).toBe("dataforseo");
    expect(Array.isArray(job.result.metrics)).toBe(true);
  });

  test("keyword metrics charge one credit per distinct keyword and complete with a 12-month trend", async () => {
    const { job } = await runJob(
      "keyword-metrics",
      { keywords: ["cold brew", "Cold Brew", "cold brew maker", "unknown phrase"] },
      3,
    );
    expect(job.status).toBe("completed");
    expect(job.result.source).toBe("dataforseo");
    expect(job.result.keywords.map((k: { keyword: string }) => k.keyword)).toEqual([
      "cold brew",
      "cold brew maker",
      "unknown phrase",
    ]);
    expect(job.result.keywords[0].trend).toHaveLength(12);
    expect(job.result.keywords[2]).toMatchObject({ searchVolume: null, difficulty: null, cpc: null });
  });

  test("a DataForSEO task error fails the job with its code and refunds it once", async () => {
    const broke = await startFakeDataForSeo({ keywords: [] });
    broke.failTask("/v3/dataforseo_labs/google/keyword_overview/live", 40501, "Invalid Field: 'keywords'.");
    withProvider(broke.url);
    try {
      const { job, before } = await runJob("keyword-metrics", { keywords: ["a", "b"] }, 2);
      expect(job).toMatchObject({
        status: "failed",
        creditsRefunded: true,
        error: { code: "DATAFORSEO_INVALID_REQUEST" },
      });
      expect(job.error.message).toMatch(/40501/);
      expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
      const ledger = await ledgerFor(handle.db, job.jobId);
      expect(ledger.filter((row) => row.type === "refund")).toHaveLength(1);
      expect(await findLedgerMismatches(handle.db)).toEqual([]);
    } finally {
      withProvider();
      await broke.close();
    }
  });
});

describe("with the sample Common Crawl web graph imported", () => {
  beforeAll(async () => {
    for (const level of ["domain", "host"] as const) {
      await importWebgraph(handle.db, {
        snapshot: { name: "cc-main-sample-d2", takenOn: "2025-08-31" },
        level,
        verticesFile: path.join(WEBGRAPH, `d2-${level}-vertices.txt.gz`),
        edgesFile: path.join(WEBGRAPH, `d2-${level}-edges.txt.gz`),
        ranksFile: path.join(WEBGRAPH, `d2-${level}-ranks.txt.gz`),
      });
    }
  });

  test("backlinks overview completes from the web graph with ranks and an authority score", async () => {
    const { job } = await runJob("backlinks-overview", { target: "example.com", includeHistory: true }, 15);
    expect(job.status).toBe("completed");
    expect(job.result).toMatchObject({
      target: "example.com",
      source: "webgraph",
      dataforseo: null,
      webgraph: { found: true, referringDomains: 4, referringHosts: 5 },
    });
    expect(job.result.webgraph.rank.authorityScore).toBeGreaterThan(0);
    expect(job.result.webgraph.topReferringDomains.length).toBeGreaterThan(0);
    expect(job.result.webgraph.history).toHaveLength(1);
  });

  test("domain authority charges one credit per distinct domain and answers each", async () => {
    const { job } = await runJob(
      "domain-authority",
      { domains: ["example.com", "Example.com", "nowhere.test"] },
      2,
    );
    expect(job.status).toBe("completed");
    expect(job.result.source).toBe("webgraph");
    expect(job.result.domains).toHaveLength(2);
    expect(job.result.domains[0]).toMatchObject({ domain: "example.com", found: true });
    expect(job.result.domains[0].authorityScore).toBeGreaterThan(0);
    expect(job.result.domains[1]).toMatchObject({
      domain: "nowhere.test",
      found: false,
      authorityScore: null,
    });
  });
});

describe("the server-side availability check", () => {
  test("found by tool name for the tools that have one, nothing for the others", async () => {
    const { loadServerAvailability } = await import("@/lib/tools/load-availability");
    expect(typeof (await loadServerAvailability("backlinks-overview"))).toBe("function");
    expect(typeof (await loadServerAvailability("keyword-metrics"))).toBe("function");
    expect(await loadServerAvailability("llms-txt")).toBeUndefined();
    expect(await loadServerAvailability("../errors/index")).toBeUndefined();
  });
});
