import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { findLedgerMismatches } from "@/lib/credits/credits";
import type { DbHandle } from "@/lib/db/client";
import { JobRunner } from "@/lib/jobs/runner";
import type { FixtureServer } from "@/test/fixture-server";
import { startSiteFixture } from "@/test/fixtures/site/server";
import { stubDataForSeoEnv } from "@/test/support/dataforseo-env";
import { balanceOf, createTestAccount, type TestAccount } from "../accounts";
import { startTestApi, type TestApi } from "../api-server";
import { createTestDb } from "../db";

// lean-mount.test.ts runs this file again inside a describe block, where Vitest cannot define file-scoped
// fixtures: the set-up is made in this file's own hooks instead.
let handle: DbHandle;
let api: TestApi;
let site: FixtureServer;
let acct: TestAccount;
const clients: Client[] = [];
const previousPrivate = process.env.ALLOW_PRIVATE_TARGETS;

beforeAll(async () => {
  // The keyword and backlink tools need a data source to be created at all.
  stubDataForSeoEnv();
  process.env.ALLOW_PRIVATE_TARGETS = "loopback";
  handle = await createTestDb();
  api = await startTestApi(handle);
  site = await startSiteFixture();
  acct = await createTestAccount(handle.db, { credits: 1000, domains: ["mcp.example.com"] });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await site?.close();
  await api?.close();
  await handle?.close();
  if (previousPrivate === undefined) delete process.env.ALLOW_PRIVATE_TARGETS;
  else process.env.ALLOW_PRIVATE_TARGETS = previousPrivate;
});

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${api.url}/api/v1/mcp`), {
    requestInit: { headers },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function data(result: CallToolResult): any {
  expect(result.isError ?? false).toBe(false);
  const text = result.content[0];
  expect(text?.type).toBe("text");
  const parsed = JSON.parse((text as { text: string }).text);
  expect(result.structuredContent).toEqual(parsed);
  return parsed;
}

const BILLED = [
  "audits",
  "core_web_vitals",
  "keyword_research",
  "brand_visibility",
  "faq_generator",
  "llms_txt",
  "ai_citation_check",
  "seo_aeo_geo_audit",
  "backlinks_overview",
  "keyword_metrics",
  "domain_authority",
  "serp",
  "ai_access",
];
const READS = [
  "get_job",
  "wait_for_job",
  "list_jobs",
  "get_credits",
  "get_bot_stats",
  "get_citations",
  "get_page_funnel",
  "list_engines",
  "get_capabilities",
  "get_visibility",
  "get_search_console_queries",
  "get_analytics_traffic",
];
/** The monitors' tools: two that change things (creating a monitor, a billed run), three reads. */
const MONITOR_WRITES = ["create_monitor", "run_monitor"];
const MONITOR_READS = ["list_monitors", "list_monitor_runs", "get_monitor_report"];
/** The scheduled audits' tools: creating a schedule and a billed run change things; two reads. */
const SCHEDULE_WRITES = ["create_schedule", "run_schedule"];
const SCHEDULE_READS = ["list_schedules", "get_schedule_history"];
const COSTS: Record<string, string> = {
  audits: "Costs 50 credits",
  core_web_vitals: "Costs 25 credits",
  keyword_research: "Costs 50 credits",
  brand_visibility: "Costs 100 credits",
  faq_generator: "Costs 20 credits",
  llms_txt: "Costs 20 credits",
  ai_citation_check: "Costs 100 credits per engine",
  seo_aeo_geo_audit: "Costs 75 credits",
  backlinks_overview: "Costs 15 credits",
  keyword_metrics: "1 credit per distinct keyword",
  domain_authority: "1 credit per distinct domain",
  serp: "Costs 5 credits",
  ai_access: "Costs 5 credits",
};

describe("tools/list", () => {
  test("every tool with input schemas, costs and annotations", async () => {
    const client = await connect(acct.headers);
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        ...BILLED,
        ...READS,
        ...MONITOR_WRITES,
        ...MONITOR_READS,
        ...SCHEDULE_WRITES,
        ...SCHEDULE_READS,
      ].sort(),
    );
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.description).toBeTruthy();
      if (BILLED.includes(tool.name)) {
        expect(tool.description).toContain(COSTS[tool.name]);
        expect(tool.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
      } else if (MONITOR_WRITES.includes(tool.name) || SCHEDULE_WRITES.includes(tool.name)) {
        expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      } else {
        expect(tool.annotations).toMatchObject({ readOnlyHint: true });
      }
    }
    const audits = tools.find((t) => t.name === "audits")!;
    expect(audits.inputSchema).toMatchObject({
      required: ["url"],
      properties: { url: { type: "string", format: "uri", maxLength: 2048 } },
      additionalProperties: false,
    });
    const cwv = tools.find((t) => t.name === "core_web_vitals")!;
    expect(cwv.description).not.toContain("not available");
    // Every tool of the catalogue is built on this server: none is described as unavailable.
    for (const tool of tools) expect(tool.description).not.toContain("not available on this server yet");
    expect(cwv.inputSchema.properties?.strategy).toMatchObject({ enum: ["mobile", "desktop"] });
  });
});

describe("a tool end to end, billing included", () => {
  test("faq_generator: charged 20, job runs, wait_for_job returns the completed job", async () => {
    const client = await connect(acct.headers);
    const before = data(await call(client, "get_credits"));
    expect(before.balance).toBe(await balanceOf(handle.db, acct.accountId));

    const created = data(await call(client, "faq_generator", { url: `${site.url}/faq.html` }));
    expect(created).toMatchObject({ tool: "faq-generator", status: "pending", creditsCharged: 20 });
    expect(created.pollUrl).toBe(`/api/v1/jobs/${created.jobId}`);
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before.balance - 20);

    const pending = data(await call(client, "get_job", { jobId: created.jobId }));
    expect(pending.status).toBe("pending");

    const runner = new JobRunner(handle.db, {
      concurrency: 2,
      leaseSeconds: 30,
      queueTimeoutSeconds: 600,
      pollMs: 50,
    });
    const [job] = await Promise.all([
      call(client, "wait_for_job", { jobId: created.jobId, timeoutSeconds: 30 }).then(data),
      runner.pass().then(() => runner.drain()),
    ]);
    expect(job).toMatchObject({ jobId: created.jobId, status: "completed", creditsCharged: 20 });
    expect(job.creditsRefunded).toBe(false);
    expect(job.result.count).toBeGreaterThanOrEqual(8);
    expect(job.result.jsonLd["@type"]).toBe("FAQPage");

    const after = data(await call(client, "get_credits"));
    expect(after.balance).toBe(before.balance - 20);
    expect(after.totalUsed).toBe(before.totalUsed + 20);
    expect(after.recentTransactions[0]).toMatchObject({
      type: "spend",
      amount: -20,
      jobId: created.jobId,
    });

    const list = data(await call(client, "list_jobs", { tool: "faq-generator" }));
    expect(list.jobs.map((j: { jobId: string }) => j.jobId)).toContain(created.jobId);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });

  test("wait_for_job returns the job as it stands when the bound passes", async () => {
    const client = await connect(acct.headers);
    const created = data(await call(client, "llms_txt", { url: `${site.url}/` }));
    const started = Date.now();
    const job = data(await call(client, "wait_for_job", { jobId: created.jobId, timeoutSeconds: 1 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(job).toMatchObject({ jobId: created.jobId, status: "pending" });
  });

  test("a job that fails is charged, then refunded (a cloud metadata address is never fetched)", async () => {
    const client = await connect(acct.headers);
    const before = await balanceOf(handle.db, acct.accountId);
    const created = data(await call(client, "audits", { url: "http://169.254.169.254/latest/meta-data/" }));
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before - 50);
    const runner = new JobRunner(handle.db, {
      concurrency: 4,
      leaseSeconds: 30,
      queueTimeoutSeconds: 600,
      pollMs: 50,
    });
    await runner.pass();
    await runner.drain();
    const job = data(await call(client, "wait_for_job", { jobId: created.jobId, timeoutSeconds: 5 }));
    expect(job).toMatchObject({
      status: "failed",
      creditsRefunded: true,
      error: { code: "TARGET_FORBIDDEN" },
    });
    // The llms_txt job of the previous test ran in the same pass (and was refunded or charged for good).
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });
});

describe("errors are tool errors with the spec's codes", () => {
  function expectToolError(result: CallToolResult, code: string) {
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text.startsWith(`${code}: `)).toBe(true);
    expect(result.structuredContent).toMatchObject({ code });
    return result.structuredContent as { code: string; message: string; details: any };
  }

  const cases: [string, string, Record<string, unknown>, string, string?][] = [
    ["audits without url", "audits", {}, "VALIDATION_ERROR", "url"],
    ["audits with ftp url", "audits", { url: "ftp://example.com/" }, "VALIDATION_ERROR", "url"],
    [
      "keyword_research with both",
      "keyword_research",
      { url: "https://example.com/", keywords: ["a"] },
      "VALIDATION_ERROR",
      "keywords",
    ],
    [
      "ai_citation_check with a bad engine",
      "ai_citation_check",
      { prompt: "p", domain: "example.com", engines: ["Bing"] },
      "VALIDATION_ERROR",
      "engines.0",
    ],
    ["unknown argument", "llms_txt", { url: "https://example.com/", extra: 1 }, "VALIDATION_ERROR"],
    [
      "wait_for_job above the bound",
      "wait_for_job",
      { jobId: "00000000-0000-4000-8000-000000000000", timeoutSeconds: 61 },
      "VALIDATION_ERROR",
      "timeoutSeconds",
    ],
    ["unknown job", "get_job", { jobId: "00000000-0000-4000-8000-000000000000" }, "NOT_FOUND"],
    ["not a job id", "wait_for_job", { jobId: "nope" }, "NOT_FOUND"],
    ["unregistered domain", "get_bot_stats", { domain: "not-mine.example.com" }, "FORBIDDEN_SCOPE"],
    [
      "citations of an unregistered domain",
      "get_citations",
      { domain: "not-mine.example.com" },
      "FORBIDDEN_SCOPE",
    ],
    [
      "page funnel of an unregistered domain",
      "get_page_funnel",
      { domain: "not-mine.example.com" },
      "FORBIDDEN_SCOPE",
    ],
    [
      "page funnel limit above 200",
      "get_page_funnel",
      { domain: "mcp.example.com", limit: 201 },
      "VALIDATION_ERROR",
      "limit",
    ],
    [
      "visibility of an unregistered domain",
      "get_visibility",
      { domain: "not-mine.example.com" },
      "FORBIDDEN_SCOPE",
    ],
    [
      "search console of an unregistered domain",
      "get_search_console_queries",
      { domain: "not-mine.example.com" },
      "FORBIDDEN_SCOPE",
    ],
    [
      "search console with an unknown dimension",
      "get_search_console_queries",
      { domain: "mcp.example.com", dimensions: "query,keyword" },
      "VALIDATION_ERROR",
      "dimensions",
    ],
    [
      "traffic without any analytics connection",
      "get_analytics_traffic",
      { domain: "mcp.example.com" },
      "VALIDATION_ERROR",
    ],
    [
      "visibility days above 395",
      "get_visibility",
      { domain: "mcp.example.com", days: 396 },
      "VALIDATION_ERROR",
      "days",
    ],
    [
      "citations days above 90",
      "get_citations",
      { domain: "mcp.example.com", days: 91 },
      "VALIDATION_ERROR",
      "days",
    ],
  ];
  for (const [name, tool, args, code, field] of cases) {
    test(`${name}: ${code}`, async () => {
      const client = await connect(acct.headers);
      const before = await balanceOf(handle.db, acct.accountId);
      const err = expectToolError(await call(client, tool, args), code);
      if (field) expect(err.details.field).toBe(field);
      expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
    });
  }

  test("insufficient credits: INSUFFICIENT_CREDITS with required and available, nothing charged", async () => {
    const poor = await createTestAccount(handle.db, { credits: 30 });
    const client = await connect(poor.headers);
    const err = expectToolError(
      await call(client, "audits", { url: "https://example.com/" }),
      "INSUFFICIENT_CREDITS",
    );
    expect(err.details).toEqual({ required: 50, available: 30 });
    expect(await balanceOf(handle.db, poor.accountId)).toBe(30);
  });

  test("another account's job is NOT_FOUND", async () => {
    const other = await createTestAccount(handle.db);
    const mine = data(
      await call(await connect(acct.headers), "backlinks_overview", { target: "example.com" }),
    );
    expectToolError(await call(await connect(other.headers), "get_job", { jobId: mine.jobId }), "NOT_FOUND");
  });

  test("an unknown tool is NOT_FOUND", async () => {
    expectToolError(await call(await connect(acct.headers), "delete_everything"), "NOT_FOUND");
  });
});

describe("authentication and rate limit, as the REST API", () => {
  test("no credentials: HTTP 401 in the envelope, the client cannot connect", async () => {
    const client = new Client({ name: "mcp-test", version: "1.0.0" });
    await expect(
      client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/api/v1/mcp`))),
    ).rejects.toMatchObject({ code: 401, message: expect.stringContaining("UNAUTHORIZED") });
    const res = await fetch(`${api.url}/api/v1/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("UNAUTHORIZED");
  });

  test("Authorization: Bearer <key>:<secret> works too", async () => {
    const client = await connect({ authorization: `Bearer ${acct.key}:${acct.secret}` });
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(
      BILLED.length +
        READS.length +
        MONITOR_WRITES.length +
        MONITOR_READS.length +
        SCHEDULE_WRITES.length +
        SCHEDULE_READS.length,
    );
  });

  test("every MCP HTTP request counts against the key's limit; the 4th of 3 is 429", async () => {
    const limited = await createTestAccount(handle.db, { rateLimitPerMinute: 3 });
    // initialize and notifications/initialized are requests 1 and 2; tools/list is 3.
    const client = await connect(limited.headers);
    await client.listTools();
    await expect(client.callTool({ name: "get_credits", arguments: {} })).rejects.toMatchObject({
      code: 429,
      message: expect.stringContaining("RATE_LIMITED"),
    });
    const res = await fetch(`${api.url}/api/v1/mcp`, {
      method: "POST",
      headers: {
        ...limited.headers,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(res.headers.get("ratelimit-limit")).toBe("3");
  });

  test("responses carry X-Request-Id and RateLimit headers; GET is 405 in the envelope", async () => {
    const res = await fetch(`${api.url}/api/v1/mcp`, {
      method: "POST",
      headers: {
        ...acct.headers,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(res.headers.get("ratelimit-policy")).toBe("10000;w=60");
    expect((await res.json()).result.serverInfo.name).toBe("findable");
    const get = await fetch(`${api.url}/api/v1/mcp`, { headers: acct.headers });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect((await get.json()).error.code).toBe("METHOD_NOT_ALLOWED");
  });
});
