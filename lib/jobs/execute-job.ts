import { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { Job } from "@/lib/db/schema";
import { ToolError } from "@/lib/errors";
import { guardedFetch } from "@/lib/fetch";
import type { AnyTool, AnyToolRunner, Env } from "@/lib/tools/types";
import { renewLease } from "./queue";
import type { RunnerOptions } from "./runner-options";
import { type RunningTask, type ToolWorkerPool, WorkerLimitError } from "./tool-pool";
import { describeFailure, type ToolSource } from "./tool-source";
import { completeJob, failJob } from "./transitions";

/** What running a job needs of its runner: the database, its lease identity and options, the tools, the env and its workers. */
export interface Execution {
  db: Db;
  /** The runner's lease owner id. */
  id: string;
  options: RunnerOptions;
  tools: ToolSource;
  env: Env;
  pool: ToolWorkerPool;
  /** The abort controllers of the jobs running, by job id (stop() aborts them). */
  controllers: Map<string, AbortController>;
}

export async function executeJob(ex: Execution, job: Job): Promise<void> {
  const tool = ex.tools.definition(job.tool);
  const runner = tool && !tool.unavailable ? await loadRunner(ex, job) : undefined;
  if (!tool || !runner) {
    await failJob(
      ex.db,
      job.id,
      {
        code: "TOOL_UNAVAILABLE",
        message: tool
          ? `The ${tool.title} tool is not available on this server yet. The credits for this job were refunded.`
          : `Unknown tool ${job.tool}. The credits for this job were refunded.`,
      },
      { leaseOwner: ex.id },
    );
    return;
  }
  const controller = new AbortController();
  ex.controllers.set(job.id, controller);
  const heartbeat = setInterval(
    () => void renewLease(ex.db, job.id, ex.id, ex.options.leaseSeconds).catch(() => {}),
    Math.max(200, (ex.options.leaseSeconds * 1000) / 3),
  );
  let task: RunningTask | undefined;
  try {
    const input = tool.input.parse(job.input);
    const file = tool.runsIn === "main" ? undefined : ex.tools.runnerFile?.(job.tool);
    let result: unknown;
    if (file) {
      task = ex.pool.run(
        { file, input, jobId: job.id, accountId: job.accountId, env: { ...ex.env } },
        { timeoutMs: tool.timeoutMs, signal: controller.signal },
      );
      result = await task.outcome.catch((err) => {
        throw describeLimit(ex, err, job, tool);
      });
    } else {
      result = await runHere(ex, job, tool, runner, input, controller);
    }
    const checked = tool.result.safeParse(result);
    if (!checked.success) {
      console.error(
        `[job ${job.id}] result does not match the ${job.tool} schema`,
        z.prettifyError(checked.error),
      );
      throw new ToolError("TOOL_FAILED", "The tool produced an invalid result. The credits were refunded.");
    }
    const onCompleted = runner.onCompleted?.bind(runner);
    await completeJob(
      ex.db,
      job.id,
      ex.id,
      checked.data,
      onCompleted &&
        ((tx, completed) => onCompleted(tx, { job: completed, input, result: checked.data, output: result })),
    );
  } catch (err) {
    controller.abort();
    await failJob(ex.db, job.id, describeFailure(err, job), {
      from: ["processing"],
      leaseOwner: ex.id,
    });
  } finally {
    clearInterval(heartbeat);
    ex.controllers.delete(job.id);
    // The slot stays taken until the thread is free: it answered the abort, or it was terminated.
    await task?.released;
  }
}

/** A tool that runs in this process (`runsIn: "main"`, or a test's in-process tool), with `ctx.db`. */
async function runHere(
  ex: Execution,
  job: Job,
  tool: AnyTool,
  runner: AnyToolRunner,
  input: unknown,
  controller: AbortController,
): Promise<unknown> {
  let timeout: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timeout = setTimeout(() => {
      controller.abort();
      reject(describeLimit(ex, new WorkerLimitError("time"), job, tool));
    }, tool.timeoutMs);
  });
  const ctx = {
    jobId: job.id,
    accountId: job.accountId,
    signal: controller.signal,
    fetch: guardedFetch,
    env: ex.env,
    db: ex.db,
  };
  try {
    return await Promise.race([runner.run(input, ctx), timedOut]);
  } finally {
    clearTimeout(timeout);
  }
}

/** The customer's words for a tool stopped at a limit; any other error passes through. */
function describeLimit(ex: Execution, err: unknown, job: Job, tool: AnyTool): unknown {
  if (!(err instanceof WorkerLimitError)) return err;
  if (err.limit === "time") {
    return new ToolError(
      "TIMEOUT",
      `The ${job.tool} job took longer than ${Math.round(tool.timeoutMs / 1000)} s and was stopped. The credits were refunded.`,
    );
  }
  return new ToolError(
    "MEMORY_LIMIT",
    `The ${job.tool} job needed more than ${ex.pool.options.memoryMb} MB of memory and was stopped. The credits were refunded.`,
  );
}

/** A runner that fails to load (a broken module) is a failed, refunded job, not a crashed pass. */
async function loadRunner(ex: Execution, job: Job): Promise<AnyToolRunner | undefined> {
  try {
    return await ex.tools.runner(job.tool);
  } catch (err) {
    console.error(`[job ${job.id}] could not load the ${job.tool} runner`, err);
    return undefined;
  }
}
