import { eq, sql } from "drizzle-orm";
import { describe, expect, vi } from "vitest";
import { findLedgerMismatches } from "@/lib/credits/credits";
import type { Db, DbHandle } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";
import { createJob } from "@/lib/jobs/create";
import { JobRunner, type RunnerOptions, recoverInterruptedJobs, toolSourceFrom } from "@/lib/jobs/runner";
import type { TestAccount } from "@/test/accounts";
import type { TestApi } from "@/test/api-server";
import { apiTest } from "@/test/support/fixtures";
import { balanceOf, createTestAccount } from "../accounts";
import { jobRow, ledgerFor, sleepRunner, sleepTool, testTools, waitFor } from "../jobs-helpers";

// The cron route runs the catalogue's tools; here it also runs this file's test tool.
vi.mock("@/lib/jobs/cron", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/jobs/cron")>();
  const { testTools } = await import("../jobs-helpers");
  return { ...actual, runJobsOnce: (db: Db) => actual.runJobsOnce(db, testTools) };
});

const opts: RunnerOptions = { concurrency: 4, leaseSeconds: 5, queueTimeoutSeconds: 600, pollMs: 50 };

const test = apiTest.withAccount({ credits: 10_000 });
let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;
test.beforeAll(({ handle: _handle, api: _api, acct: _acct }) => {
  handle = _handle;
  api = _api;
  acct = _acct;
});

async function newJob(input: Record<string, unknown> = {}) {
  const { job } = await createJob(handle.db, {
    accountId: acct.accountId,
    tool: sleepTool as never,
    input: sleepTool.input.parse(input),
  });
  return job;
}

async function apiJob(id: string) {
  const res = await fetch(`${api.url}/api/v1/jobs/${id}`, { headers: acct.headers });
  return (await res.json()).data;
}

async function runOnce(runner: JobRunner) {
  await runner.pass();
  await runner.drain();
}

describe("state transitions", () => {
  test("pending → processing → completed with data.result", async () => {
    const job = await newJob({ ms: 300 });
    expect((await apiJob(job.id)).status).toBe("pending");
    const runner = new JobRunner(handle.db, opts, testTools);
    await runner.pass();
    const during = await apiJob(job.id);
    expect(during.status).toBe("processing");
    expect(during.startedAt).toBeTruthy();
    expect(during).not.toHaveProperty("result");
    await runner.drain();
    const done = await apiJob(job.id);
    expect(done).toMatchObject({
      status: "completed",
      result: { sleptMs: 300, echo: job.id },
      creditsCharged: 7,
      creditsRefunded: false,
    });
    expect((await ledgerFor(handle.db, job.id)).map((l) => l.type)).toEqual(["spend"]);
  });

  const failures: [string, Record<string, unknown>, string, RegExp][] = [
    ["a tool's own failure", { fail: "tool-error" }, "HTTP_ERROR", /503/],
    [
      "an unexpected crash (no internals shown)",
      { fail: "crash" },
      "TOOL_FAILED",
      /^The tool failed unexpectedly/,
    ],
    ["a result that breaks the tool's schema", { fail: "bad-result" }, "TOOL_FAILED", /invalid result/],
    ["the per-tool timeout", { ms: 5000 }, "TIMEOUT", /longer than 2 s/],
  ];
  for (const [name, input, code, message] of failures) {
    test(`processing → failed on ${name}: ${code}, refunded once, listed in /credits`, async () => {
      const before = await balanceOf(handle.db, acct.accountId);
      const job = await newJob(input);
      expect(await balanceOf(handle.db, acct.accountId)).toBe(before - 7);
      await runOnce(new JobRunner(handle.db, opts, testTools));
      const failed = await apiJob(job.id);
      expect(failed).toMatchObject({
        status: "failed",
        creditsCharged: 7,
        creditsRefunded: true,
        error: { code },
      });
      expect(failed.error.message).toMatch(message);
      expect(failed.error.message).not.toContain("/srv/app");
      expect(failed).not.toHaveProperty("result");
      expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
      const ledger = await ledgerFor(handle.db, job.id);
      expect(ledger.map((l) => [l.type, l.amount])).toEqual([
        ["spend", -7],
        ["refund", 7],
      ]);
      expect(ledger[1]!.description).toBe(`Refund: test-sleep job ${job.id} failed (${code})`);
      const credits = await (await fetch(`${api.url}/api/v1/credits`, { headers: acct.headers })).json();
      expect(credits.data.recentTransactions[0]).toMatchObject({ type: "refund", amount: 7, jobId: job.id });
    });
  }

  test("a tool that is not built yet fails with TOOL_UNAVAILABLE and is refunded", async () => {
    const before = await balanceOf(handle.db, acct.accountId);
    // Every catalogue tool is built today; a catalogued definition marked unavailable stands in for the next one.
    const tool = { ...sleepTool, unavailable: { reason: "Not built on this server yet." } };
    const source = toolSourceFrom({ "test-sleep": { definition: tool, runner: sleepRunner } });
    const { job } = await createJob(handle.db, { accountId: acct.accountId, tool, input: { ms: 0 } });
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before - 7);
    await runOnce(new JobRunner(handle.db, opts, source));
    expect(await apiJob(job.id)).toMatchObject({
      status: "failed",
      creditsRefunded: true,
      error: { code: "TOOL_UNAVAILABLE" },
    });
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
  });

  test("a tool that cannot run here is refused before any charge, whoever creates the job", async () => {
    const before = await balanceOf(handle.db, acct.accountId);
    const unavailable = {
      ...sleepTool,
      availability: () => ({
        ok: false as const,
        reason: "No provider for Gemini is configured on this server.",
      }),
    };
    await expect(
      createJob(handle.db, { accountId: acct.accountId, tool: unavailable as never, input: { ms: 0 } }),
    ).rejects.toMatchObject({ code: "VALIDATION_ERROR", details: { reason: "provider_not_configured" } });
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
  });

  test("pending past the queue timeout → failed with QUEUE_TIMEOUT and refunded", async () => {
    const job = await newJob();
    await handle.db
      .update(jobs)
      .set({ createdAt: sql`now() - interval '31 minutes'` })
      .where(eq(jobs.id, job.id));
    const runner = new JobRunner(
      handle.db,
      { ...opts, queueTimeoutSeconds: 1800, concurrency: 0 },
      testTools,
    );
    expect((await runner.pass()).queueTimedOut).toBe(1);
    expect(await apiJob(job.id)).toMatchObject({
      status: "failed",
      creditsRefunded: true,
      error: { code: "QUEUE_TIMEOUT" },
    });
  });

  test("processing with an expired lease (its worker died) → failed with INTERRUPTED and refunded", async () => {
    const job = await newJob();
    await handle.db
      .update(jobs)
      .set({
        status: "processing",
        leaseOwner: "w_dead",
        leaseExpiresAt: sql`now() - interval '1 second'`,
        startedAt: sql`now()`,
      })
      .where(eq(jobs.id, job.id));
    expect(await recoverInterruptedJobs(handle.db)).toBe(1);
    expect(await apiJob(job.id)).toMatchObject({
      status: "failed",
      creditsRefunded: true,
      error: { code: "INTERRUPTED" },
    });
  });

  test("a live lease is left alone and renewed by the heartbeat", async () => {
    const job = await newJob({ ms: 1200 });
    const runner = new JobRunner(handle.db, { ...opts, leaseSeconds: 1 }, testTools);
    await runner.pass();
    const first = (await jobRow(handle.db, job.id))!.leaseExpiresAt!;
    await new Promise((r) => setTimeout(r, 700));
    expect(await recoverInterruptedJobs(handle.db)).toBe(0);
    expect((await jobRow(handle.db, job.id))!.leaseExpiresAt!.getTime()).toBeGreaterThan(first.getTime());
    await runner.drain();
    expect((await jobRow(handle.db, job.id))!.status).toBe("completed");
  });

  test("two runners recovering the same job refund it once", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await newJob()).id);
    await handle.db
      .update(jobs)
      .set({ status: "processing", leaseOwner: "w_dead", leaseExpiresAt: sql`now() - interval '1 second'` })
      .where(sql`${jobs.id} in ${ids}`);
    const before = await balanceOf(handle.db, acct.accountId);
    const [a, b] = await Promise.all([recoverInterruptedJobs(handle.db), recoverInterruptedJobs(handle.db)]);
    expect(a + b).toBe(10);
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before + 70);
    for (const id of ids)
      expect((await ledgerFor(handle.db, id)).filter((l) => l.type === "refund")).toHaveLength(1);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });

  test("a stopped runner fails its running jobs as INTERRUPTED with the refund", async () => {
    const job = await newJob({ ms: 3000 });
    const runner = new JobRunner(handle.db, opts, testTools);
    await runner.pass();
    await runner.stop();
    expect(await apiJob(job.id)).toMatchObject({
      status: "failed",
      creditsRefunded: true,
      error: { code: "INTERRUPTED" },
    });
    await runner.drain();
    // The tool's late completion must not overwrite the failure.
    expect((await jobRow(handle.db, job.id))!.status).toBe("failed");
  });

  test("runners never take the same job (FOR UPDATE SKIP LOCKED)", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await newJob({ ms: 100 })).id);
    const runners = [
      new JobRunner(handle.db, opts, testTools),
      new JobRunner(handle.db, opts, testTools),
      new JobRunner(handle.db, opts, testTools),
    ];
    await Promise.all(runners.map((r) => r.pass()));
    const owners = await handle.db
      .select({ id: jobs.id, owner: jobs.leaseOwner })
      .from(jobs)
      .where(sql`${jobs.id} in ${ids}`);
    const claimed = owners.filter((o) => o.owner);
    expect(new Set(claimed.map((o) => o.id)).size).toBe(claimed.length);
    await Promise.all(runners.map((r) => r.drain()));
    for (const r of runners) await runOnce(r);
    await Promise.all(runners.map((r) => r.drain()));
    const rows = await handle.db
      .select({ attempts: jobs.attempts, status: jobs.status })
      .from(jobs)
      .where(sql`${jobs.id} in ${ids}`);
    expect(rows.every((r) => r.status === "completed" && r.attempts === 1)).toBe(true);
  });

  test("a pass claims no more jobs than the runner's free slots", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await newJob({ ms: 0 })).id);
    const runner = new JobRunner(handle.db, { ...opts, concurrency: 1 }, testTools);
    expect((await runner.pass()).claimed).toBe(1);
    const statuses = await handle.db
      .select({ status: jobs.status })
      .from(jobs)
      .where(sql`${jobs.id} in ${ids}`);
    expect(statuses.filter((s) => s.status !== "pending")).toHaveLength(1);
    await runner.drain();
    for (let i = 0; i < 2; i++) await runOnce(runner);
  });

  test("the started runner picks a new job up at once", async () => {
    const runner = new JobRunner(handle.db, { ...opts, pollMs: 60_000 }, testTools);
    runner.start();
    try {
      await new Promise((r) => setTimeout(r, 100));
      const job = await newJob();
      const done = await waitFor(async () => {
        const row = await jobRow(handle.db, job.id);
        return row?.status === "completed" ? row : null;
        // Well under the 60 s poll: only the NOTIFY wake-up can finish it in time, even on a busy machine.
      }, 10_000);
      expect(done.status).toBe("completed");
    } finally {
      await runner.stop();
    }
  });

  test("jobs older than 7 days are purged; the job is NOT_FOUND, the ledger keeps its rows", async () => {
    const job = await newJob();
    await runOnce(new JobRunner(handle.db, opts, testTools));
    await handle.db
      .update(jobs)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(jobs.id, job.id));
    const res = await fetch(`${api.url}/api/v1/jobs/${job.id}`, { headers: acct.headers });
    expect(res.status).toBe(404);
    const report = await new JobRunner(handle.db, { ...opts, concurrency: 0 }, testTools).pass();
    expect(report.purged).toBeGreaterThanOrEqual(1);
    expect(await jobRow(handle.db, job.id)).toBeUndefined();
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });
});

describe("GET /jobs", () => {
  test("newest first, filters, cursor pagination, validation", async () => {
    const other = await createTestAccount(handle.db, { credits: 1000 });
    const mine: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { job } = await createJob(handle.db, {
        accountId: other.accountId,
        tool: sleepTool as never,
        input: { ms: 0 },
      });
      mine.push(job.id);
    }
    const list = async (qs: string) => {
      const res = await fetch(`${api.url}/api/v1/jobs${qs}`, { headers: other.headers });
      return { status: res.status, body: await res.json() };
    };
    const page1 = await list("?limit=2");
    expect(page1.body.data.jobs.map((j: { jobId: string }) => j.jobId)).toEqual([mine[4], mine[3]]);
    const page2 = await list(`?limit=2&cursor=${page1.body.data.nextCursor}`);
    expect(page2.body.data.jobs.map((j: { jobId: string }) => j.jobId)).toEqual([mine[2], mine[1]]);
    const page3 = await list(`?limit=2&cursor=${page2.body.data.nextCursor}`);
    expect(page3.body.data.jobs.map((j: { jobId: string }) => j.jobId)).toEqual([mine[0]]);
    expect(page3.body.data.nextCursor).toBeNull();
    expect((await list("?status=completed")).body.data.jobs).toEqual([]);
    expect((await list("?status=pending")).body.data.jobs).toHaveLength(5);
    expect((await list("?tool=audits")).body.data.jobs).toEqual([]);
    for (const bad of [
      "?status=done",
      "?tool=nope",
      "?limit=0",
      "?limit=101",
      "?cursor=garbage",
      "?page=2",
    ]) {
      const r = await list(bad);
      expect(r.status, bad).toBe(400);
      expect(r.body.error.code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("GET /jobs pages", () => {
  test("jobs created within one millisecond are each listed once, in order, across pages", async () => {
    const other = await createTestAccount(handle.db, { credits: 1000 });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { job } = await createJob(handle.db, {
        accountId: other.accountId,
        tool: sleepTool as never,
        input: { ms: 0 },
      });
      ids.push(job.id);
    }
    // Postgres keeps microseconds: six jobs 100 µs apart, all in the same millisecond.
    for (const [i, id] of ids.entries()) {
      await handle.db
        .update(jobs)
        .set({
          createdAt: sql`timestamptz '2026-11-28 03:00:00.123+00' + ${i * 100} * interval '1 microsecond'`,
        })
        .where(eq(jobs.id, id));
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const res = await fetch(`${api.url}/api/v1/jobs?limit=1${cursor ? `&cursor=${cursor}` : ""}`, {
        headers: other.headers,
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { jobs: { jobId: string }[]; nextCursor: string | null } };
      seen.push(...body.data.jobs.map((j) => j.jobId));
      cursor = body.data.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  test("a cursor holding a time Postgres cannot store is a 400, not a 500", async () => {
    for (const at of [
      "0000-06-01T00:00:00.000Z",
      "+275760-09-13T00:00:00.000Z",
      "10000-01-01T00:00:00.000Z",
      "2026-02-31T00:00:00.000Z",
    ]) {
      const cursor = Buffer.from(`${at}|00000000-0000-4000-8000-000000000000`).toString("base64url");
      const res = await fetch(`${api.url}/api/v1/jobs?cursor=${cursor}`, { headers: acct.headers });
      expect(res.status, at).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("GET /api/cron/jobs", () => {
  test("401 without the secret; with it, one pass that runs the claimed jobs", async () => {
    process.env.CRON_SECRET = "cron-secret-for-tests-0123456789";
    try {
      for (const authz of [undefined, "Bearer wrong", "cron-secret-for-tests-0123456789"]) {
        const res = await fetch(`${api.url}/api/cron/jobs`, {
          headers: authz ? { authorization: authz } : {},
        });
        expect(res.status).toBe(401);
      }
      const job = await newJob({ ms: 50 });
      // Each pass takes the oldest pending jobs (earlier tests left some), up to the concurrency.
      for (let i = 0; i < 10 && (await jobRow(handle.db, job.id))!.status === "pending"; i++) {
        const res = await fetch(`${api.url}/api/cron/jobs`, {
          headers: { authorization: "Bearer cron-secret-for-tests-0123456789" },
        });
        expect(res.status).toBe(200);
        expect((await res.json()).data.claimed).toBeGreaterThanOrEqual(1);
      }
      expect((await jobRow(handle.db, job.id))!.status).toBe("completed");
    } finally {
      delete process.env.CRON_SECRET;
    }
  });
});
