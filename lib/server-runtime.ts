import { getDbHandle } from "@/lib/db/client";
import { catalogToolSource, JobRunner, runnerOptionsFromEnv, type ToolSource } from "@/lib/jobs/runner";

const state = globalThis as unknown as { __jobRunner?: JobRunner };

/** Server start: migrations first, then the in-process job runner unless JOB_WORKER=off. */
export async function startServerRuntime(tools: ToolSource = catalogToolSource): Promise<void> {
  // This process owns an embedded database folder and shares it with the admin CLI and workers.
  const { db } = await getDbHandle({ serve: true, command: "web server" });
  if (process.env.JOB_WORKER === "off" || state.__jobRunner) return;
  const runner = new JobRunner(db, runnerOptionsFromEnv(), tools);
  state.__jobRunner = runner;
  runner.start();
  // Fail-and-refund the running jobs now rather than when their leases expire. The production server
  // (server.ts) awaits `stopServerRuntime` before it exits; if nothing else handles the signal (Next's own
  // start, which exits by itself), exit once the runner has stopped.
  const stop = (signal: NodeJS.Signals) => {
    void stopServerRuntime().finally(() => {
      if (process.listenerCount(signal) === 0) process.exit(0);
    });
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

/**
 * Stops this process's job runner: no more claims, its running jobs failed as INTERRUPTED and refunded.
 * Resolves at once when none runs; every caller shares the one stop.
 */
export function stopServerRuntime(): Promise<void> {
  return state.__jobRunner?.stop() ?? Promise.resolve();
}
