import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { count, eq } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, vi } from "vitest";
import { findLedgerMismatches } from "@/lib/credits/credits";
import type { DbHandle } from "@/lib/db/client";
import { jobs, visibilityObservations } from "@/lib/db/schema";
import { describeJobForOperators } from "@/lib/jobs/operator-view";
import { JobRunner, type RunnerOptions, toolSourceFrom } from "@/lib/jobs/runner";
import { DEFAULT_MODELS } from "@/lib/providers/engines";
import { runner as citationRunner } from "@/lib/tools/ai-citation-check/run";
import { runner as brandRunner } from "@/lib/tools/brand-visibility/run";
import { TOOLS } from "@/lib/tools/catalog";
import type { AnyToolRunner } from "@/lib/tools/types";
import { createRoutedFetch, type FakeEngines, startFakeEngines } from "@/test/fakes/ai/engines";
import { type FixtureServer, startFixtureServer } from "@/test/fixture-server";
import { apiTest } from "@/test/support/fixtures";
import { balanceOf, createTestAccount, type TestAccount } from "../accounts";
import type { TestApi } from "../api-server";
import { jobRow, ledgerFor } from "../jobs-helpers";

// The AI tools end to end: REST creation (charge, availability), the job runner with the real tool runners
// against the four fake providers (their real wire formats, through the official SDKs), refunds, observations,
// GET /engines, GET /visibility and MCP. The customer's domain and Google's grounding redirect service are
// served by local servers through the guarded fetcher, so nothing leaves the machine.

const test = apiTest;
let handle: DbHandle;
let api: TestApi;
let fakes: FakeEngines;
let home: FixtureServer;
let redirector: http.Server;
let acct: TestAccount;
let runner: JobRunner;
const clients: Client[] = [];
const opts: RunnerOptions = { concurrency: 4, leaseSeconds: 30, queueTimeoutSeconds: 600, pollMs: 50 };

test.beforeAll(async ({ handle: _handle, api: _api }) => {
  fakes = await startFakeEngines();
  for (const [name, value] of Object.entries(fakes.env)) vi.stubEnv(name, value);
  home = await startFixtureServer({
    routes: {
      "/": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end("<html><head><title>Acme Cloud | Project tools</title></head><body>Hi</body></html>");
      },
    },
  });
  redirector = http.createServer((req, res) => {
    const id = new URL(req.url ?? "/", "http://x").pathname.replace("/grounding-api-redirect/", "");
    const target = fakes.redirects.get(id);
    res.writeHead(target ? 302 : 404, target ? { location: target } : {}).end();
  });
  await new Promise<void>((resolve) => redirector.listen(0, "127.0.0.1", resolve));
  const fetch = createRoutedFetch({
    "vertexaisearch.cloud.google.com": `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`,
    "acme.com": home.url,
  });
  // The production runners, with the network boundary (the guarded fetcher) routed to the local servers.
  const routed = (real: AnyToolRunner): AnyToolRunner => ({
    run: (input, ctx) => real.run(input, { ...ctx, fetch }),
    onCompleted: real.onCompleted?.bind(real),
  });
  const tools = toolSourceFrom({
    "ai-citation-check": { definition: TOOLS["ai-citation-check"], runner: routed(citationRunner) },
    "brand-visibility": { definition: TOOLS["brand-visibility"], runner: routed(brandRunner) },
  });
  handle = _handle;
  api = _api;
  runner = new JobRunner(handle.db, opts, tools, fakes.env);
  acct = await createTestAccount(handle.db, { credits: 5_000, domains: ["acme.com"] });
});

afterEach(() => {
  // Tests that unset a key restore the fakes' configuration.
  for (const [name, value] of Object.entries(fakes.env)) vi.stubEnv(name, value);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await Promise.all([fakes?.close(), home?.close(), new Promise((r) => redirector?.close(r))]);
});

async function post(path: string, body: unknown) {
  const res = await fetch(`${api.url}/api/v1/${path}`, {
    method: "POST",
    headers: { ...acct.headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function get(path: string, headers = acct.headers) {
  const res = await fetch(`${api.url}/api/v1/${path}`, { headers });
  return { status: res.status, body: await res.json() };
}

/** Creates the job over REST, runs it with the job runner, and answers the job as GET /jobs/{id} shows it. */
async function runJob(path: string, body: unknown) {
  const created = await post(path, body);
  expect(created.status).toBe(202);
  await runner.pass();
  await runner.drain();
  const job = await get(`jobs/${created.body.data.jobId}`);
  expect(job.status).toBe(200);
  return job.body.data;
}

const answers = {
  // Cites the domain and names it first, positively.
  chatgpt: {
    answer: {
      text: "Acme is an excellent, reliable project tool. Rival is another option.",
      sources: [
        {
          url: "https://www.acme.com/guide",
          title: "Acme guide",
          quote: "Acme is an excellent, reliable project tool.",
        },
      ],
      inputTokens: 120,
      outputTokens: 40,
    },
  },
  // Names the competitor first and cites a subdomain of the domain.
  perplexity: {
    answer: {
      text: "Rival leads the market [1]. Acme is a project tool based in Berlin [2].",
      sources: [
        { url: "https://rival.io/about", title: "About Rival" },
        { url: "https://docs.acme.com/start", title: "Acme docs" },
      ],
    },
  },
  // Mentions the brand without citing it ("Acmes" inside another word is no mention).
  claude: {
    answer: {
      text: "Acmes are peaks. Acme Cloud is a fine choice for teams. Wikipedia has background.",
      sources: [
        {
          url: "https://en.wikipedia.org/wiki/Project",
          title: "Project",
          quote: "Wikipedia has background.",
        },
      ],
    },
  },
  // Cites only the competitor, through a grounding redirect.
  gemini: {
    answer: {
      text: "Rival is the best known option for small teams.",
      sources: [{ url: "https://www.rival.io/pricing", title: "Rival pricing" }],
    },
  },
};

const input = { prompt: "best project tool?", domain: "acme.com", competitors: ["rival.io"] };

describe("ai-citation-check end to end", () => {
  test("four engines: completed with the spec's fields, observations recorded, usage kept for operators only", async () => {
    fakes.openai.enqueue(answers.chatgpt);
    fakes.perplexity.enqueue(answers.perplexity);
    fakes.anthropic.enqueue(answers.claude);
    fakes.gemini.enqueue(answers.gemini);
    const before = await balanceOf(handle.db, acct.accountId);

    const job = await runJob("ai-citation-check", input);

    expect(job).toMatchObject({
      status: "completed",
      creditsCharged: 400,
      creditsRefunded: false,
      creditsRefundedAmount: 0,
    });
    const { result } = job;
    expect(result.domain).toBe("acme.com");
    expect(result.summary).toMatchObject({
      citedIn: ["ChatGPT", "Perplexity"],
      mentionedIn: ["ChatGPT", "Perplexity", "Claude"],
      notFoundIn: ["Gemini"],
      citationRate: 0.5,
      competitors: [{ domain: "rival.io", citedIn: ["Perplexity", "Gemini"], citationRate: 0.5 }],
    });
    expect(result.summary.visibilityScore).toBeGreaterThan(0);
    expect(result.summary.visibilityScore).toBeLessThanOrEqual(100);
    const by = Object.fromEntries(result.results.map((r: { engine: string }) => [r.engine, r]));
    expect(Object.keys(by)).toEqual(["ChatGPT", "Perplexity", "Claude", "Gemini"]);
    expect(by.ChatGPT).toMatchObject({
      cited: true,
      citedUrls: ["https://www.acme.com/guide"],
      mentionPosition: 1,
      sentiment: "positive",
      // The model as the provider names it in its answer: the default's dated snapshot.
      model: expect.stringContaining(DEFAULT_MODELS.ChatGPT),
    });
    expect(by.Perplexity).toMatchObject({
      cited: true,
      citedUrls: ["https://docs.acme.com/start"],
      mentionPosition: 2,
    });
    expect(by.Claude).toMatchObject({ cited: false, citedUrls: [], mentionPosition: 1 });
    expect(by.Gemini).toMatchObject({ cited: false, mentionPosition: 0, sentiment: "neutral" });
    expect(by.Gemini.sources).toEqual([
      { url: "https://www.rival.io/pricing", title: "rival.io", domain: "rival.io" },
    ]);
    for (const entry of result.results) expect(entry).not.toHaveProperty("error");

    // Token usage: on the job row for operators, nowhere in what the customer reads.
    expect(JSON.stringify(job)).not.toMatch(/inputTokens|outputTokens|usage/);
    const row = await jobRow(handle.db, job.jobId);
    expect(row!.providerUsage).toEqual(
      expect.arrayContaining([
        {
          engine: "ChatGPT",
          model: expect.stringContaining(DEFAULT_MODELS.ChatGPT),
          inputTokens: 120,
          outputTokens: 40,
          attempts: 1,
        },
      ]),
    );
    expect(row!.providerUsage).toHaveLength(4);
    // The admin CLI's show-job prints it.
    const operator = await describeJobForOperators(handle.db, job.jobId);
    expect(operator!.providerUsage).toEqual(row!.providerUsage);

    const observed = await handle.db
      .select()
      .from(visibilityObservations)
      .where(eq(visibilityObservations.jobId, job.jobId));
    expect(observed.map((o) => [o.engine, o.cited, o.mentioned, o.position]).sort()).toEqual(
      [
        ["ChatGPT", true, true, 1],
        ["Claude", false, true, 1],
        ["Gemini", false, false, 0],
        ["Perplexity", true, true, 2],
      ].sort(),
    );
    expect((await ledgerFor(handle.db, job.jobId)).map((l) => [l.type, l.amount])).toEqual([["spend", -400]]);
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before - 400);
  });

  test("one engine failing: completed, one refund row of 100 with the job id, ledger = balance", async () => {
    fakes.openai.enqueue(answers.chatgpt);
    fakes.perplexity.enqueue(answers.perplexity);
    fakes.anthropic.enqueue({ status: 400, message: "prompt is too long" });
    fakes.gemini.enqueue(answers.gemini);
    const before = await balanceOf(handle.db, acct.accountId);

    const job = await runJob("ai-citation-check", input);

    expect(job).toMatchObject({
      status: "completed",
      creditsCharged: 400,
      creditsRefunded: false,
      creditsRefundedAmount: 100,
    });
    const claude = job.result.results.find((r: { engine: string }) => r.engine === "Claude");
    expect(claude.error).toEqual({ code: expect.any(String), message: expect.stringContaining("Claude") });
    expect(job.result.summary.citedIn).toEqual(["ChatGPT", "Perplexity"]);
    // Checked engines are those that answered: 2 of 3 cited.
    expect(job.result.summary.citationRate).toBeCloseTo(2 / 3, 4);

    const ledger = await ledgerFor(handle.db, job.jobId);
    expect(ledger.map((l) => [l.type, l.amount, l.jobId])).toEqual([
      ["spend", -400, job.jobId],
      ["refund", 100, job.jobId],
    ]);
    expect(ledger[1]!.description).toContain("Claude");
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before - 300);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
    const credits = await get("credits");
    expect(credits.body.data.recentTransactions[0]).toMatchObject({
      type: "refund",
      amount: 100,
      jobId: job.jobId,
    });
    // Failed engines observed nothing.
    const [{ n } = { n: -1 }] = await handle.db
      .select({ n: count() })
      .from(visibilityObservations)
      .where(eq(visibilityObservations.jobId, job.jobId));
    expect(n).toBe(3);
  });

  test("every engine failing: the job fails with ENGINES_FAILED and is refunded in full, once", async () => {
    fakes.openai.enqueue({ status: 401, message: "Incorrect API key provided" });
    fakes.anthropic.enqueue({ status: 400, message: "bad request" });
    const before = await balanceOf(handle.db, acct.accountId);

    const job = await runJob("ai-citation-check", { ...input, engines: ["ChatGPT", "Claude"] });

    expect(job).toMatchObject({
      status: "failed",
      error: { code: "ENGINES_FAILED" },
      creditsCharged: 200,
      creditsRefunded: true,
      creditsRefundedAmount: 200,
    });
    expect((await ledgerFor(handle.db, job.jobId)).map((l) => [l.type, l.amount])).toEqual([
      ["spend", -200],
      ["refund", 200],
    ]);
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });

  test("an unconfigured engine: 400 naming the configured engines and the variable to set, no charge, no job", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    const before = await balanceOf(handle.db, acct.accountId);
    const [{ n: jobsBefore } = { n: -1 }] = await handle.db.select({ n: count() }).from(jobs);

    // Without `engines` the check means all four: the 400 says which to pass.
    const all = await post("ai-citation-check", input);
    expect(all.status).toBe(400);
    expect(all.body.error.code).toBe("VALIDATION_ERROR");
    expect(all.body.error.message).toContain("Claude (ANTHROPIC_API_KEY)");
    expect(all.body.error.message).toContain('pass engines: ["ChatGPT","Perplexity","Gemini"]');
    expect(all.body.error.details).toMatchObject({
      configured: ["ChatGPT", "Perplexity", "Gemini"],
      missing: [{ name: "Claude", envVar: "ANTHROPIC_API_KEY" }],
    });
    const one = await post("brand-visibility", { ...input, engine: "claude" });
    expect(one.status).toBe(400);
    expect(one.body.error.message).toContain("ANTHROPIC_API_KEY");

    expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
    const [{ n: jobsAfter } = { n: -2 }] = await handle.db.select({ n: count() }).from(jobs);
    expect(jobsAfter).toBe(jobsBefore);
  });
});

describe("brand-visibility end to end", () => {
  test("ChatGPT by default: the entry, every brand named in order, the competitors", async () => {
    fakes.openai.enqueue(answers.chatgpt);
    const job = await runJob("brand-visibility", input);
    expect(job).toMatchObject({ status: "completed", creditsCharged: 100, creditsRefundedAmount: 0 });
    expect(job.result).toMatchObject({
      engine: "ChatGPT",
      domain: "acme.com",
      cited: true,
      mentionPosition: 1,
      sentiment: "positive",
      competitors: [{ domain: "rival.io", mentioned: true, mentionPosition: 2, cited: false }],
    });
    expect(job.result.mentions.map((m: { domain: string }) => m.domain)).toEqual(["acme.com", "rival.io"]);
    expect(JSON.stringify(job.result)).not.toMatch(/inputTokens|usage/);
  });

  test("its one engine failing fails the job with ENGINES_FAILED, refunded in full", async () => {
    fakes.perplexity.enqueue({ status: 401, message: "Invalid API key" });
    const job = await runJob("brand-visibility", { ...input, engine: "Perplexity" });
    expect(job).toMatchObject({
      status: "failed",
      error: { code: "ENGINES_FAILED" },
      creditsRefunded: true,
      creditsRefundedAmount: 100,
    });
  });
});

describe("GET /engines, GET /visibility and MCP", () => {
  test("GET /engines: every engine, configured or not, with its model and never its key", async () => {
    vi.stubEnv("GEMINI_API_KEY", "");
    const res = await get("engines");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      engines: [
        { name: "ChatGPT", configured: true, model: DEFAULT_MODELS.ChatGPT },
        { name: "Perplexity", configured: true, model: DEFAULT_MODELS.Perplexity },
        { name: "Claude", configured: true, model: DEFAULT_MODELS.Claude },
        { name: "Gemini", configured: false, model: DEFAULT_MODELS.Gemini },
      ],
    });
    expect(JSON.stringify(res.body)).not.toContain(fakes.env.OPENAI_API_KEY!);
  });

  test("GET /visibility: rates per engine and overall from the completed checks; 403 and 400 at the edges", async () => {
    const res = await get("visibility?domain=acme.com&days=7");
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ domain: "acme.com", days: 7 });
    const chatgpt = data.engines.find((e: { engine: string }) => e.engine === "ChatGPT");
    // ChatGPT answered three checks (two citation checks, one brand visibility), cited and named the domain each time.
    expect(chatgpt).toMatchObject({ checks: 3, citationRate: 1, mentionRate: 1 });
    expect(chatgpt.series).toHaveLength(1);
    const gemini = data.engines.find((e: { engine: string }) => e.engine === "Gemini");
    expect(gemini).toMatchObject({ checks: 2, citationRate: 0, mentionRate: 0 });
    const claude = data.engines.find((e: { engine: string }) => e.engine === "Claude");
    expect(claude).toMatchObject({ checks: 1, citationRate: 0, mentionRate: 1 });
    // 3 + 2 (Perplexity) + 1 + 2 answers; cited by ChatGPT ×3 and Perplexity ×2.
    expect(data.overall).toMatchObject({ checks: 8, citationRate: 0.625 });

    const foreign = await get("visibility?domain=rival.io");
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe("FORBIDDEN_SCOPE");
    for (const days of ["0", "396", "abc"]) {
      const bad = await get(`visibility?domain=acme.com&days=${days}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe("VALIDATION_ERROR");
    }
    expect((await get("visibility?domain=acme.com")).body.data.days).toBe(30);
  });

  test("MCP list_engines and get_visibility", async () => {
    const client = new Client({ name: "ai-checks-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${api.url}/api/v1/mcp`), {
        requestInit: { headers: acct.headers },
      }),
    );
    clients.push(client);
    const engines = (await client.callTool({ name: "list_engines", arguments: {} })) as CallToolResult;
    expect(engines.isError ?? false).toBe(false);
    expect(engines.structuredContent).toMatchObject({
      engines: [
        { name: "ChatGPT", configured: true, model: DEFAULT_MODELS.ChatGPT },
        { name: "Perplexity", configured: true },
        { name: "Claude", configured: true },
        { name: "Gemini", configured: true },
      ],
    });
    const visibility = (await client.callTool({
      name: "get_visibility",
      arguments: { domain: "acme.com", days: 7 },
    })) as CallToolResult;
    expect(visibility.structuredContent).toMatchObject({
      domain: "acme.com",
      days: 7,
      overall: { checks: 8 },
    });
  });
});

describe("cited, retrieved and the sentiment judge end to end", () => {
  test("Claude: a page it read but did not cite is retrieved, not a citation; the model judge's usage is the operator's", async () => {
    fakes.anthropic.enqueue({
      answer: {
        text: "Acme Cloud is an excellent choice for teams. Rival is popular too.",
        sources: [{ url: "https://rival.io/guide", title: "Rival guide", quote: "Rival is popular too." }],
        searchResults: [{ url: "https://www.acme.com/pricing", title: "Acme pricing" }],
        queries: ["project tools for teams"],
      },
    });
    fakes.openai.enqueueStructured({ json: { sentiment: "positive" }, inputTokens: 64, outputTokens: 6 });

    const job = await runJob("brand-visibility", { ...input, engine: "Claude" });

    expect(job).toMatchObject({ status: "completed", creditsCharged: 100, creditsRefundedAmount: 0 });
    expect(job.result).toMatchObject({
      engine: "Claude",
      cited: false,
      citedUrls: [],
      sources: [{ url: "https://rival.io/guide", domain: "rival.io" }],
      queries: ["project tools for teams"],
      sentiment: "positive",
      sentimentDetail: { label: "positive", method: "model", model: expect.stringContaining("gpt-5-nano") },
      sentimentMethod: expect.stringMatching(/^A model judge \(gpt-5-nano/),
    });
    expect(job.result.retrieved).toEqual(
      expect.arrayContaining([
        { url: "https://www.acme.com/pricing", title: "Acme pricing", domain: "acme.com" },
      ]),
    );
    expect(JSON.stringify(job.result)).not.toMatch(/inputTokens|usage/);
    const row = await jobRow(handle.db, job.jobId);
    expect(row!.providerUsage).toEqual([
      expect.objectContaining({ engine: "Claude", attempts: 1 }),
      {
        engine: "ChatGPT",
        purpose: "sentiment",
        model: expect.stringContaining("gpt-5-nano"),
        inputTokens: 64,
        outputTokens: 6,
        attempts: 1,
      },
    ]);
    const [observed] = await handle.db
      .select()
      .from(visibilityObservations)
      .where(eq(visibilityObservations.jobId, job.jobId));
    expect(observed).toMatchObject({
      engine: "Claude",
      cited: false,
      mentioned: true,
      sentiment: "positive",
    });
  });
});
