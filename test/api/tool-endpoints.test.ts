import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, vi } from "vitest";
import { findLedgerMismatches } from "@/lib/credits/credits";
import type { DbHandle } from "@/lib/db/client";
import { creditLedger, jobs } from "@/lib/db/schema";
import type { TestAccount } from "@/test/accounts";
import type { TestApi } from "@/test/api-server";
import { stubDataForSeoEnv } from "@/test/support/dataforseo-env";
import { apiTest } from "@/test/support/fixtures";
import { balanceOf, createTestAccount } from "../accounts";
import { configureEnginesOffline } from "../support/configure-engines";

beforeAll(async () => {
  // The AI tools refuse engines without a key; these tests create AI jobs without running them.
  configureEnginesOffline();
  // The keyword and backlink tools need a data source to be created at all.
  stubDataForSeoEnv();
});
afterAll(() => {
  vi.unstubAllEnvs();
});
const test = apiTest.withAccount({ credits: 100_000 });
let handle: DbHandle;
let api: TestApi;
let rich: TestAccount;
test.beforeAll(({ handle: _handle, api: _api, acct: _rich }) => {
  handle = _handle;
  api = _api;
  rich = _rich;
});

async function post(path: string, body: unknown, headers: Record<string, string>, raw?: string) {
  const res = await fetch(`${api.url}/api/v1/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: raw ?? JSON.stringify(body),
  });
  return { res, body: (await res.json()) as any };
}

const long = (n: number) => "a".repeat(n);
const url = "https://example.com/page";

// One row per bad body of every tool: [tool, body, the field the error must name]
const badBodies: [string, unknown, string][] = [
  ["audits", {}, "url"],
  ["audits", { url: "" }, "url"],
  ["audits", { url: "example.com" }, "url"],
  ["audits", { url: "ftp://example.com/" }, "url"],
  ["audits", { url: "javascript:alert(1)" }, "url"],
  ["audits", { url: `https://example.com/${long(2050)}` }, "url"],
  ["audits", { url: 42 }, "url"],
  ["audits", { url, extra: true }, "body"],
  ["audits", [url], "body"],
  ["audits", null, "body"],
  ["core-web-vitals", {}, "url"],
  ["core-web-vitals", { url, strategy: "tablet" }, "strategy"],
  ["core-web-vitals", { url, strategy: 1 }, "strategy"],
  ["keyword-research", {}, "url"],
  ["keyword-research", { url, keywords: ["seo"] }, "keywords"],
  ["keyword-research", { keywords: [] }, "keywords"],
  ["keyword-research", { keywords: Array.from({ length: 11 }, (_, i) => `kw${i}`) }, "keywords"],
  ["keyword-research", { keywords: [long(81)] }, "keywords.0"],
  ["keyword-research", { keywords: [""] }, "keywords.0"],
  ["keyword-research", { keywords: "seo" }, "keywords"],
  ["keyword-research", { url: "not a url" }, "url"],
  ["brand-visibility", { domain: "example.com" }, "prompt"],
  ["brand-visibility", { prompt: "best crm" }, "domain"],
  ["brand-visibility", { prompt: "", domain: "example.com" }, "prompt"],
  ["brand-visibility", { prompt: long(2001), domain: "example.com" }, "prompt"],
  ["brand-visibility", { prompt: "best crm", domain: "not a domain" }, "domain"],
  ["brand-visibility", { prompt: "best crm", domain: `${long(250)}.com` }, "domain"],
  ["brand-visibility", { prompt: "best crm", domain: "example.com", engine: "Bing" }, "engine"],
  [
    "brand-visibility",
    {
      prompt: "x",
      domain: "example.com",
      competitors: ["a.com", "b.com", "c.com", "d.com", "e.com", "f.com"],
    },
    "competitors",
  ],
  [
    "brand-visibility",
    { prompt: "x", domain: "example.com", competitors: ["a.com", "a.com"] },
    "competitors",
  ],
  ["brand-visibility", { prompt: "x", domain: "example.com", competitors: ["not valid"] }, "competitors.0"],
  ["faq-generator", {}, "url"],
  ["faq-generator", { url: "http://" }, "url"],
  ["llms-txt", {}, "url"],
  ["llms-txt", { url: "mailto:a@b.com" }, "url"],
  ["ai-citation-check", { domain: "example.com" }, "prompt"],
  ["ai-citation-check", { prompt: "best crm" }, "domain"],
  ["ai-citation-check", { prompt: "best crm", domain: "example.com", engines: [] }, "engines"],
  [
    "ai-citation-check",
    { prompt: "best crm", domain: "example.com", engines: ["ChatGPT", "ChatGPT"] },
    "engines",
  ],
  ["ai-citation-check", { prompt: "best crm", domain: "example.com", engines: ["Bard"] }, "engines.0"],
  ["ai-citation-check", { prompt: "best crm", domain: "example.com", engines: "ChatGPT" }, "engines"],
  [
    "ai-citation-check",
    { prompt: "x", domain: "example.com", competitors: Array.from({ length: 6 }, (_, i) => `c${i}.com`) },
    "competitors",
  ],
  ["seo-aeo-geo-audit", {}, "url"],
  ["seo-aeo-geo-audit", { url: "//example.com" }, "url"],
  ["backlinks-overview", {}, "target"],
  ["backlinks-overview", { target: "not a domain" }, "target"],
  ["backlinks-overview", { target: "example.com", includeHistory: "yes" }, "includeHistory"],
  ["backlinks-overview", { target: "127.0.0.1" }, "target"],
  ["keyword-metrics", {}, "keywords"],
  ["keyword-metrics", { keywords: [] }, "keywords"],
  ["keyword-metrics", { keywords: Array.from({ length: 101 }, (_, i) => `k${i}`) }, "keywords"],
  ["keyword-metrics", { keywords: ["x".repeat(81)] }, "keywords.0"],
  ["keyword-metrics", { keywords: ["a"], language: "english" }, "language"],
  ["domain-authority", {}, "domains"],
  ["domain-authority", { domains: Array.from({ length: 101 }, (_, i) => `d${i}.com`) }, "domains"],
  ["domain-authority", { domains: ["https://example.com/"] }, "domains.0"],
];

describe("every bad body of every tool is a 400 naming the field, and charges nothing", () => {
  for (const [tool, body, field] of badBodies) {
    test(`${tool} ${JSON.stringify(body)?.slice(0, 80)}`, async () => {
      const before = await balanceOf(handle.db, rich.accountId);
      const r = await post(tool, body, rich.headers);
      expect(r.res.status).toBe(400);
      expect(r.body.error.code).toBe("VALIDATION_ERROR");
      expect(r.body.error.details.field).toBe(field);
      expect(r.body.error.details.issues[0].message).toBeTruthy();
      expect(await balanceOf(handle.db, rich.accountId)).toBe(before);
    });
  }

  const transport: [string, () => Promise<{ res: Response; body: any }>, string][] = [
    ["malformed JSON", () => post("audits", null, rich.headers, '{"url": '), "malformed_json"],
    [
      "wrong content type",
      async () => {
        const res = await fetch(`${api.url}/api/v1/audits`, {
          method: "POST",
          headers: { ...rich.headers, "content-type": "text/plain" },
          body: JSON.stringify({ url }),
        });
        return { res, body: await res.json() };
      },
      "unsupported_content_type",
    ],
    ["body over 1 MB", () => post("audits", { url, pad: long(1_100_000) }, rich.headers), "body_too_large"],
  ];
  for (const [name, send, reason] of transport) {
    test(name, async () => {
      const r = await send();
      expect(r.res.status).toBe(400);
      expect(r.body.error.details.reason).toBe(reason);
    });
  }
});

describe("creation", () => {
  const costs: [string, unknown, number][] = [
    ["audits", { url }, 50],
    ["core-web-vitals", { url }, 25],
    ["core-web-vitals", { url, strategy: "desktop" }, 25],
    ["keyword-research", { url }, 50],
    ["keyword-research", { keywords: ["ai seo", "llms.txt"] }, 50],
    ["brand-visibility", { prompt: "best crm", domain: "example.com" }, 100],
    ["faq-generator", { url }, 20],
    ["llms-txt", { url }, 20],
    ["ai-citation-check", { prompt: "best crm", domain: "example.com" }, 400],
    ["ai-citation-check", { prompt: "best crm", domain: "example.com", engines: ["ChatGPT", "Claude"] }, 200],
    ["seo-aeo-geo-audit", { url }, 75],
    ["backlinks-overview", { target: "example.com" }, 15],
    ["backlinks-overview", { target: "example.com", includeHistory: true }, 15],
    ["keyword-metrics", { keywords: ["cold brew", "Cold Brew", "espresso"] }, 2],
    ["domain-authority", { domains: ["example.com", "example.org", "example.com"] }, 2],
  ];
  for (const [tool, body, cost] of costs) {
    test(`${tool} ${JSON.stringify(body)}: 202, the spec's shape, Location, ${cost} credits with a spend row`, async () => {
      const before = await balanceOf(handle.db, rich.accountId);
      const r = await post(tool, body, rich.headers);
      expect(r.res.status).toBe(202);
      const data = r.body.data;
      const expectedKeys =
        tool === "audits"
          ? ["creditsCharged", "jobId", "pollUrl", "status", "tool"]
          : ["jobId", "pollUrl", "status"];
      expect(Object.keys(data).sort()).toEqual(expectedKeys);
      expect(data.status).toBe("pending");
      expect(data.pollUrl).toBe(`/api/v1/jobs/${data.jobId}`);
      expect(r.res.headers.get("location")).toBe(data.pollUrl);
      if (tool === "audits") expect(data).toMatchObject({ tool: "audits", creditsCharged: 50 });
      expect(await balanceOf(handle.db, rich.accountId)).toBe(before - cost);
      const [spend] = await handle.db.select().from(creditLedger).where(eq(creditLedger.jobId, data.jobId));
      expect(spend).toMatchObject({ type: "spend", amount: -cost, description: `${tool} job ${data.jobId}` });
      const [job] = await handle.db.select().from(jobs).where(eq(jobs.id, data.jobId));
      expect(job).toMatchObject({ tool, status: "pending", creditsCharged: cost });
    });
  }

  test("402 INSUFFICIENT_CREDITS with required and available; no job, no ledger row", async () => {
    const poor = await createTestAccount(handle.db, { credits: 30 });
    const r = await post("audits", { url }, poor.headers);
    expect(r.res.status).toBe(402);
    expect(r.body.error).toMatchObject({
      code: "INSUFFICIENT_CREDITS",
      details: { required: 50, available: 30 },
    });
    expect(await handle.db.select().from(jobs).where(eq(jobs.accountId, poor.accountId))).toEqual([]);
    expect(await balanceOf(handle.db, poor.accountId)).toBe(30);
    const ok = await post("faq-generator", { url }, poor.headers);
    expect(ok.res.status).toBe(202);
    expect(await balanceOf(handle.db, poor.accountId)).toBe(10);
  });

  test("domains and URLs are normalised before they are stored", async () => {
    const r = await post("backlinks-overview", { target: "HTTPS://Example.COM/some/path" }, rich.headers);
    const [job] = await handle.db.select().from(jobs).where(eq(jobs.id, r.body.data.jobId));
    expect(job!.input).toEqual({ target: "example.com", includeHistory: false });
  });
});

describe("Idempotency-Key", () => {
  test("a replay returns the original 202 and charges once", async () => {
    const acct = await createTestAccount(handle.db, { credits: 500 });
    const h = { ...acct.headers, "idempotency-key": "order-7f0c" };
    const first = await post("audits", { url }, h);
    const again = await post("audits", { url }, h);
    expect(again.res.status).toBe(202);
    expect(again.body.data).toEqual(first.body.data);
    expect(again.res.headers.get("idempotent-replayed")).toBe("true");
    expect(await balanceOf(handle.db, acct.accountId)).toBe(450);
    // Key order in the body does not make a different request.
    const reordered = await post(
      "keyword-research",
      { keywords: ["a", "b"] },
      { ...acct.headers, "idempotency-key": "k2" },
    );
    const same = await post(
      "keyword-research",
      null,
      { ...acct.headers, "idempotency-key": "k2" },
      '{ "keywords": ["a","b"] }',
    );
    expect(same.body.data.jobId).toBe(reordered.body.data.jobId);
  });

  test("the same key with a different body or endpoint is 400 idempotency_key_reused", async () => {
    const acct = await createTestAccount(handle.db, { credits: 500 });
    const h = { ...acct.headers, "idempotency-key": "dup" };
    await post("audits", { url }, h);
    for (const [tool, body] of [
      ["audits", { url: "https://example.com/other" }],
      ["faq-generator", { url }],
    ] as const) {
      const r = await post(tool, body, h);
      expect(r.res.status).toBe(400);
      expect(r.body.error.details.reason).toBe("idempotency_key_reused");
    }
    expect(await balanceOf(handle.db, acct.accountId)).toBe(450);
  });

  test("concurrent requests with one key make one job", async () => {
    const acct = await createTestAccount(handle.db, { credits: 500 });
    const h = { ...acct.headers, "idempotency-key": "race" };
    const results = await Promise.all(Array.from({ length: 8 }, () => post("llms-txt", { url }, h)));
    expect(results.every((r) => r.res.status === 202)).toBe(true);
    expect(new Set(results.map((r) => r.body.data.jobId)).size).toBe(1);
    expect(await balanceOf(handle.db, acct.accountId)).toBe(480);
  });

  test("keys are per account", async () => {
    const a = await createTestAccount(handle.db);
    const b = await createTestAccount(handle.db);
    const ra = await post("llms-txt", { url }, { ...a.headers, "idempotency-key": "shared" });
    const rb = await post("llms-txt", { url }, { ...b.headers, "idempotency-key": "shared" });
    expect(ra.body.data.jobId).not.toBe(rb.body.data.jobId);
  });

  test("a malformed key is 400", async () => {
    const r = await post("llms-txt", { url }, { ...rich.headers, "idempotency-key": "x".repeat(256) });
    expect(r.res.status).toBe(400);
    expect(r.body.error.details.field).toBe("Idempotency-Key");
  });
});

test("50 concurrent creations at an account that can afford 10: 10 accepted, 40 × 402, ledger = balance", async () => {
  const acct = await createTestAccount(handle.db, { credits: 200 });
  const results = await Promise.all(
    Array.from({ length: 50 }, () => post("faq-generator", { url }, acct.headers)),
  );
  const statuses = results.map((r) => r.res.status);
  expect(statuses.filter((s) => s === 202)).toHaveLength(10);
  expect(statuses.filter((s) => s === 402)).toHaveLength(40);
  for (const r of results.filter((x) => x.res.status === 402)) {
    expect(r.body.error.details).toEqual({ required: 20, available: 0 });
  }
  expect(await balanceOf(handle.db, acct.accountId)).toBe(0);
  expect(await handle.db.select().from(jobs).where(eq(jobs.accountId, acct.accountId))).toHaveLength(10);
  expect(await findLedgerMismatches(handle.db)).toEqual([]);
});
