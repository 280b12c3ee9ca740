import type { Db } from "@/lib/db/client";
import { catalogToolSource, JobRunner, runnerOptionsFromEnv, type ToolSource } from "./runner";

/**
 * A cron-triggered pass: recover, time out and purge, then run the claimed jobs to completion
 * within this invocation (a serverless function may be frozen once it answers).
 */
export async function runJobsOnce(db: Db, tools: ToolSource = catalogToolSource) {
  const runner = new JobRunner(db, runnerOptionsFromEnv(), tools);
  const report = await runner.pass();
  await runner.drain();
  return report;
}
