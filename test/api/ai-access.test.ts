// POST /api/v1/ai-access end to end: the job is created and charged over REST, run by the job runner in the
// server's process (so it reads the account's tracked visits), and its result read back over REST.
import { and, eq } from "drizzle-orm";
import { afterAll, expect } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { domains, trackingDailyBots } from "@/lib/db/schema";
import { JobRunner, type RunnerOptions, toolSourceFrom } from "@/lib/jobs/runner";
import { runner as aiAccessRunner } from "@/lib/tools/ai-access/run";
import { TOOLS } from "@/lib/tools/catalog";
import { createRoutedFetch } from "@/test/fakes/ai/engines";
import { type FixtureServer, startFixtureServer } from "@/test/fixture-server";
import { apiTest } from "@/test/support/fixtures";
import { balanceOf, createTestAccount, type TestAccount } from "../accounts";
import type { TestApi } from "../api-server";

const test = apiTest;
let handle: DbHandle;
let api: TestApi;
let site: FixtureServer;
let acct: TestAccount;
let runner: JobRunner;
const opts: RunnerOptions = { concurrency: 2, leaseSeconds: 30, queueTimeoutSeconds: 600, pollMs: 50 };

test.beforeAll(async ({ handle: _handle, api: _api }) => {
  site = await startFixtureServer({
    routes: {
      "/": (req, res) => {
        if (/OAI-SearchBot/.test(req.headers["user-agent"] ?? "")) {
          res.writeHead(403, { "content-type": "text/html" });
          res.end("<html><body>Forbidden</body></html>");
          return;
        }
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end('<html><head><title>Acme</title></head><body><a href="/docs/a">Docs</a></body></html>');
      },
      "/robots.txt": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(
          "User-agent: ClaudeBot\nDisallow: /\n\nUser-agent: *\nContent-Signal: ai-train=no\nAllow: /\n",
        );
      },
    },
  });
  const fetch = createRoutedFetch({ "acme.com": site.url });
  const tools = toolSourceFrom({
    "ai-access": {
      definition: TOOLS["ai-access"],
      runner: { run: (input, ctx) => aiAccessRunner.run(input, { ...ctx, fetch }) },
    },
  });
  handle = _handle;
  api = _api;
  runner = new JobRunner(handle.db, opts, tools, {});
  acct = await createTestAccount(handle.db, { credits: 100, domains: ["acme.com"] });
  const [domain] = await handle.db
    .select()
    .from(domains)
    .where(and(eq(domains.accountId, acct.accountId), eq(domains.hostname, "acme.com")));
  await handle.db.insert(trackingDailyBots).values({
    domainId: domain!.id,
    day: new Date().toISOString().slice(0, 10),
    botName: "ClaudeBot",
    botPurpose: "training",
    isAiBot: true,
    visits: 1204,
    verifiedVisits: 0,
    spoofedVisits: 0,
  });
});

afterAll(async () => {
  await site?.close();
});

test("charged 5 credits; the matrix, the server's 403 and the tracked visits in words", async () => {
  const created = await fetch(`${api.url}/api/v1/ai-access`, {
    method: "POST",
    headers: { ...acct.headers, "content-type": "application/json" },
    body: JSON.stringify({ url: "https://acme.com/" }),
  });
  expect(created.status).toBe(202);
  const { data } = await created.json();
  expect(await balanceOf(handle.db, acct.accountId)).toBe(95);
  await runner.pass();
  await runner.drain();
  const job = await (await fetch(`${api.url}/api/v1/jobs/${data.jobId}`, { headers: acct.headers })).json();
  expect(job.data.status).toBe("completed");
  const result = job.data.result;
  const row = (token: string) => result.rows.find((r: { token: string }) => r.token === token);
  expect(row("ClaudeBot")).toMatchObject({ operator: "Anthropic", purpose: "training", status: "blocked" });
  expect(row("GPTBot").status).toBe("blocked");
  expect(row("OAI-SearchBot").status).toBe("blocked");
  const messages = result.contradictions.map((c: { message: string }) => c.message);
  expect(messages).toContain("blocked, yet 1,204 visits claiming ClaudeBot came in 30 days (all unverified)");
  expect(
    messages.some((m: string) =>
      m.startsWith("robots.txt allows OAI-SearchBot but the server answers it HTTP 403"),
    ),
  ).toBe(true);
  expect(messages.some((m: string) => m.startsWith("ai-train=no but GPTBot is allowed by robots.txt"))).toBe(
    true,
  );
  expect(result.tracking).toEqual({ used: true, days: 30 });
});

test("a URL that is no http(s) URL is a 400 naming the field, nothing charged", async () => {
  const before = await balanceOf(handle.db, acct.accountId);
  const res = await fetch(`${api.url}/api/v1/ai-access`, {
    method: "POST",
    headers: { ...acct.headers, "content-type": "application/json" },
    body: JSON.stringify({ url: "ftp://acme.com/" }),
  });
  expect(res.status).toBe(400);
  const body = await res.json();
  expect(body.error.code).toBe("VALIDATION_ERROR");
  expect(JSON.stringify(body.error)).toContain("url");
  expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
});
