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
  // Fail-and-refund the running jobs now rather than when their leases expire. If nothing else
  // handles the signal (Next does, by exiting), exit once the runner has stopped.
  const stop = (signal: NodeJS.Signals) => {
    void runner.stop().finally(() => {
      if (process.listenerCount(signal) === 0) process.exit(0);
    });
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
