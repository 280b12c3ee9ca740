import type { Db } from "@/lib/db/client";
import { JobRunner, runnerOptionsFromEnv } from "./runner";

/**
 * A cron-triggered pass: recover, time out and purge, then run the claimed jobs to completion
 * within this invocation (a serverless function may be frozen once it answers).
 */
export async function runJobsOnce(db: Db) {
  const runner = new JobRunner(db, runnerOptionsFromEnv());
  const report = await runner.pass();
  await runner.drain();
  return report;
}
