import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";
import { createJob } from "@/lib/jobs/create";
import { JobRunner, type RunnerOptions, toolSourceFrom } from "@/lib/jobs/runner";
import { getTool } from "@/lib/tools/catalog";
import { loadToolRunner, toolRunnerFile } from "@/lib/tools/load-runner";
import type { AnyTool } from "@/lib/tools/types";
import type { TestAccount } from "@/test/accounts";
import type { TestApi } from "@/test/api-server";
import { startSiteFixture } from "@/test/fixtures/site/server";
import { apiTest, toolContext } from "@/test/support/fixtures";
import { balanceOf } from "../accounts";
import type { FixtureServer } from "../fixture-server";
import {
  jobRow,
  ledgerFor,
  STRESS_TOOL_FILE,
  sleepTool,
  stressRunner,
  stressTool,
  testTools,
  waitFor,
} from "../jobs-helpers";

// Tools run in worker threads: a tool that never yields, eats memory or kills its thread fails its
// job (refunded once) while the server keeps answering, and the next job runs on a fresh thread.
let site: FixtureServer;
const previousPrivate = process.env.ALLOW_PRIVATE_TARGETS;
const opts: RunnerOptions = {
  concurrency: 1,
  leaseSeconds: 5,
  queueTimeoutSeconds: 600,
  pollMs: 50,
  workerMemoryMb: 96,
  abortGraceMs: 500,
};

beforeAll(() => {
  process.env.ALLOW_PRIVATE_TARGETS = "loopback";
});
const test = apiTest.withAccount({ credits: 10_000 });
let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;
test.beforeAll(({ handle: _handle, api: _api, acct: _acct }) => {
  handle = _handle;
  api = _api;
  acct = _acct;
});
beforeAll(async () => {
  site = await startSiteFixture();
  // The first request compiles the route module; the probes measure answers, not that.
  await (await fetch(`${api.url}/api/v1/credits`, { headers: acct.headers })).arrayBuffer();
});
afterAll(async () => {
  if (previousPrivate === undefined) delete process.env.ALLOW_PRIVATE_TARGETS;
  else process.env.ALLOW_PRIVATE_TARGETS = previousPrivate;
  await site?.close();
});

// Runners here take one job at a time, oldest first: a job an earlier failed test left behind must not
// be the one the next test runs.
beforeEach(async () => {
  await handle.db.delete(jobs).where(inArray(jobs.status, ["pending", "processing"]));
});

async function newJob(tool: AnyTool, input: Record<string, unknown>) {
  const { job } = await createJob(handle.db, {
    accountId: acct.accountId,
    tool,
    input: tool.input.parse(input),
  });
  return job;
}

async function statusOf(id: string) {
  return (await jobRow(handle.db, id))?.status;
}

/** GET /api/v1/credits over HTTP, one after another, until `done()`: the latency of each answer. */
async function probeCreditsUntil(done: () => Promise<boolean>): Promise<number[]> {
  const latencies: number[] = [];
  while (!(await done())) {
    const started = performance.now();
    const res = await fetch(`${api.url}/api/v1/credits`, { headers: acct.headers });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 50));
  }
  return latencies;
}

async function expectRefundedOnce(jobId: string, code: string, cost: number) {
  const row = (await jobRow(handle.db, jobId))!;
  expect(row).toMatchObject({ status: "failed", creditsRefunded: true, error: { code } });
  expect(row.error!.message).not.toContain("/srv/app");
  expect((await ledgerFor(handle.db, jobId)).map((l) => [l.type, l.amount])).toEqual([
    ["spend", -cost],
    ["refund", cost],
  ]);
  return row;
}

describe("a tool that misbehaves stays in its thread", () => {
  test("a busy loop that never yields: TIMEOUT, refunded once, the server answers meanwhile, the next job runs", async () => {
    const before = await balanceOf(handle.db, acct.accountId);
    const runaway = await newJob(stressTool, { mode: "forever" });
    const next = await newJob(sleepTool, { ms: 0 });
    const runner = new JobRunner(handle.db, opts, testTools);
    const killedBefore = runner.workers.stats.killed;
    runner.start();
    try {
      await waitFor(async () => (await statusOf(runaway.id)) === "processing", 5000);
      const latencies = await probeCreditsUntil(async () => (await statusOf(runaway.id)) === "failed");
      // The loop ran for the tool's 1.5 s limit (plus the thread's start): many answers, all prompt.
      expect(latencies.length).toBeGreaterThanOrEqual(5);
      expect(Math.max(...latencies)).toBeLessThan(1000);
      const failed = await expectRefundedOnce(runaway.id, "TIMEOUT", 5);
      expect(failed.error!.message).toMatch(/longer than 2 s/);
      const done = await waitFor(async () => {
        const row = await jobRow(handle.db, next.id);
        return row?.status === "completed" ? row : null;
      }, 10_000);
      expect(done.result).toEqual({ sleptMs: 0, echo: next.id });
      // The thread ignored the abort, so it was terminated after the grace.
      expect(runner.workers.stats.killed).toBe(killedBefore + 1);
      expect(await balanceOf(handle.db, acct.accountId)).toBe(before - 7);
    } finally {
      await runner.stop();
    }
  });

  test("a memory hog: MEMORY_LIMIT, refunded once, the next job runs", async () => {
    const before = await balanceOf(handle.db, acct.accountId);
    const hog = await newJob(stressTool, { mode: "hog" });
    const next = await newJob(sleepTool, { ms: 0 });
    // A time limit the hog cannot reach first, even on a loaded machine: the heap limit must stop it.
    const source = toolSourceFrom(
      {
        "test-stress": {
          definition: { ...stressTool, timeoutMs: 60_000 },
          runner: stressRunner,
          file: STRESS_TOOL_FILE,
        },
      },
      testTools,
    );
    const runner = new JobRunner(handle.db, opts, source);
    await runner.pass();
    const latencies = await probeCreditsUntil(async () => (await statusOf(hog.id)) === "failed");
    await runner.drain();
    expect(Math.max(0, ...latencies)).toBeLessThan(1000);
    const failed = await expectRefundedOnce(hog.id, "MEMORY_LIMIT", 5);
    expect(failed.error!.message).toMatch(/more than 96 MB of memory/);
    await runner.pass();
    await runner.drain();
    expect(await statusOf(next.id)).toBe("completed");
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before - 7);
  });

  const crashes: [string, Record<string, unknown>][] = [
    ["an exception thrown outside the tool's promise (the thread dies)", { mode: "uncaught" }],
    ["process.exit in the tool (the thread ends)", { mode: "exit" }],
  ];
  for (const [name, input] of crashes) {
    test(`${name}: TOOL_FAILED without internals, refunded once, the next job runs`, async () => {
      const crash = await newJob(stressTool, input);
      const next = await newJob(sleepTool, { ms: 0 });
      const runner = new JobRunner(handle.db, opts, testTools);
      await runner.pass();
      await runner.drain();
      const failed = await expectRefundedOnce(crash.id, "TOOL_FAILED", 5);
      expect(failed.error!.message).toBe(
        "The tool failed unexpectedly. The credits for this job were refunded.",
      );
      await runner.pass();
      await runner.drain();
      expect(await statusOf(next.id)).toBe("completed");
    });
  }
});

describe("where a tool runs", () => {
  test("a catalogue tool (faq-generator) runs in a worker from its sources and gives the in-process result", async () => {
    const tool = getTool("faq-generator")!;
    const input = tool.input.parse({ url: `${site.url}/faq.html` });
    const production = (await loadToolRunner("faq-generator"))!;
    // The runner of this process keeps onCompleted only: were run() called here, the job would fail.
    const source = toolSourceFrom({
      "faq-generator": {
        definition: tool,
        runner: {
          run: () => Promise.reject(new Error("run() called in the server's thread")),
        },
        file: toolRunnerFile("faq-generator"),
      },
    });
    const job = await newJob(tool, input);
    const runner = new JobRunner(handle.db, opts, source);
    await runner.pass();
    await runner.drain();
    const row = (await jobRow(handle.db, job.id))!;
    expect(row.error).toBeNull();
    expect(row.status).toBe("completed");
    const here = await production.run(
      input,
      toolContext({
        jobId: job.id,
        accountId: acct.accountId,
        fetch: (await import("@/lib/fetch")).guardedFetch,
        env: process.env,
      }),
    );
    expect(row.result).toEqual(here);
    expect((row.result as { count: number }).count).toBeGreaterThanOrEqual(8);
  });

  test('runsIn "main" runs in the server\'s thread with ctx.db; by default a tool runs in a worker without it', async () => {
    const source = toolSourceFrom({
      "test-stress": {
        definition: { ...stressTool, runsIn: "main" },
        runner: stressRunner,
        file: STRESS_TOOL_FILE,
      },
    });
    const main = await newJob(stressTool, { mode: "db" });
    const inMain = new JobRunner(handle.db, opts, source);
    await inMain.pass();
    await inMain.drain();
    expect((await jobRow(handle.db, main.id))!.result).toEqual({
      iterations: 0,
      mainThread: true,
      dbAnswered: true,
    });

    const worker = await newJob(stressTool, { mode: "db" });
    const runner = new JobRunner(handle.db, opts, testTools);
    await runner.pass();
    await runner.drain();
    expect((await jobRow(handle.db, worker.id))!.result).toEqual({
      iterations: 0,
      mainThread: false,
      dbAnswered: false,
    });
  });
});
