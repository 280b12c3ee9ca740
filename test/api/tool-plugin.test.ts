import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";
import { createJob } from "@/lib/jobs/create";
import { JobRunner, toolSourceFrom } from "@/lib/jobs/runner";
import { TOOLS } from "@/lib/tools/catalog";
import { dbTest } from "@/test/support/fixtures";
import { balanceOf, createTestAccount, type TestAccount } from "../accounts";
import { jobRow, SLEEP_TOOL_FILE, sleepRunner, sleepTool } from "../jobs-helpers";

// How a tool plugs in: a definition, a runner, optionally onCompleted; availability from the environment.
const test = dbTest;
let handle: DbHandle;
let acct: TestAccount;
// One account's jobs: it may have both slots (the default per-account cap keeps one slot for other accounts).
const opts = { concurrency: 2, accountConcurrency: 2, leaseSeconds: 5, queueTimeoutSeconds: 600, pollMs: 50 };

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  acct = await createTestAccount(handle.db, { credits: 10_000 });
});

async function runOnce(runner: JobRunner) {
  await runner.pass();
  await runner.drain();
}

describe("engine availability, once an AI tool is built", () => {
  // The definition as it will be when its run.ts lands: the same object without the placeholder flag.
  const built = { ...TOOLS["ai-citation-check"], unavailable: undefined };

  test("an unconfigured engine is a 400 before any charge, naming the configured engines and the variable", async () => {
    const before = await balanceOf(handle.db, acct.accountId);
    const input = built.input.parse({
      prompt: "best crm",
      domain: "example.com",
      engines: ["ChatGPT", "Claude"],
    });
    const refused = createJob(handle.db, {
      accountId: acct.accountId,
      tool: built,
      input,
      env: { OPENAI_API_KEY: "sk-test" },
    });
    await expect(refused).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      details: { reason: "engine_not_configured" },
    });
    const message = await refused.catch((e: Error) => e.message);
    expect(message).toContain("Claude");
    expect(message).toContain("ANTHROPIC_API_KEY");
    expect(message).toContain("Configured engines: ChatGPT");
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
  });

  test("configured engines are charged per engine", async () => {
    const before = await balanceOf(handle.db, acct.accountId);
    const input = built.input.parse({ prompt: "best crm", domain: "example.com", engines: ["chatgpt"] });
    const { job } = await createJob(handle.db, {
      accountId: acct.accountId,
      tool: built,
      input,
      env: { OPENAI_API_KEY: "sk-test" },
    });
    expect(job.creditsCharged).toBe(100);
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before - 100);
  });
});

describe("onCompleted", () => {
  // run() in a worker thread (the file), onCompleted in the runner's process with its transaction.
  test("runs inside the completing transaction: it sees the job completed", async () => {
    const seen: string[] = [];
    const runner = {
      ...sleepRunner,
      async onCompleted(
        tx: Parameters<NonNullable<typeof sleepRunner.onCompleted>>[0],
        { job }: { job: { id: string } },
      ) {
        const [row] = await tx.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, job.id));
        seen.push(row!.status);
      },
    };
    const source = toolSourceFrom({
      "test-sleep": { definition: sleepTool, runner, file: SLEEP_TOOL_FILE },
    });
    const { job } = await createJob(handle.db, {
      accountId: acct.accountId,
      tool: sleepTool,
      input: { ms: 0 },
    });
    await runOnce(new JobRunner(handle.db, opts, source));
    expect(seen).toEqual(["completed"]);
    expect((await jobRow(handle.db, job.id))!.status).toBe("completed");
  });

  test("a throwing hook leaves nothing completed: the job fails and is refunded", async () => {
    const before = await balanceOf(handle.db, acct.accountId);
    const runner = {
      ...sleepRunner,
      async onCompleted() {
        throw new Error("observation store down");
      },
    };
    const source = toolSourceFrom({
      "test-sleep": { definition: sleepTool, runner, file: SLEEP_TOOL_FILE },
    });
    const { job } = await createJob(handle.db, {
      accountId: acct.accountId,
      tool: sleepTool,
      input: { ms: 0 },
    });
    await runOnce(new JobRunner(handle.db, opts, source));
    const row = (await jobRow(handle.db, job.id))!;
    expect(row.status).toBe("failed");
    expect(row.result).toBeNull();
    expect(row.creditsRefunded).toBe(true);
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
  });
});

test("a catalogued tool without a run.ts fails with TOOL_UNAVAILABLE and is refunded", async () => {
  const before = await balanceOf(handle.db, acct.accountId);
  const built = { ...TOOLS["brand-visibility"], unavailable: undefined };
  const source = toolSourceFrom({ "brand-visibility": { definition: built, runner: undefined as never } });
  const { job } = await createJob(handle.db, {
    accountId: acct.accountId,
    tool: built,
    input: built.input.parse({ prompt: "best crm", domain: "example.com" }),
    env: { OPENAI_API_KEY: "sk-test" },
  });
  await runOnce(new JobRunner(handle.db, opts, source));
  const row = (await jobRow(handle.db, job.id))!;
  expect(row.status).toBe("failed");
  expect(row.error).toMatchObject({ code: "TOOL_UNAVAILABLE" });
  expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
});

test("the production loader finds run.ts by tool name, and nothing for a tool without one", async () => {
  const { loadToolRunner } = await import("@/lib/tools/load-runner");
  expect(typeof (await loadToolRunner("audits"))?.run).toBe("function");
  expect(typeof (await loadToolRunner("llms-txt"))?.run).toBe("function");
  expect(await loadToolRunner("no-such-tool")).toBeUndefined();
  expect(await loadToolRunner("../errors/index")).toBeUndefined();
});
