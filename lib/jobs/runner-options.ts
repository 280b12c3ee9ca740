import type { DeliveryPassReport } from "@/lib/webhooks/deliver";

export interface RunnerOptions {
  /** Jobs this worker runs at once (and tool worker threads kept warm). */
  concurrency: number;
  /**
   * Jobs one account may have processing at once, over every runner on the database. Below `concurrency`, so
   * one account's flood always leaves a slot of each runner to the other accounts.
   */
  accountConcurrency?: number;
  /** A processing job whose lease is not renewed for this long is taken as interrupted. */
  leaseSeconds: number;
  /** A job still pending after this long fails with QUEUE_TIMEOUT. */
  queueTimeoutSeconds: number;
  /** How often the worker looks for work when nothing pokes it. */
  pollMs: number;
  /** The heap limit of each tool worker thread; a tool that passes it fails with MEMORY_LIMIT. */
  workerMemoryMb?: number;
  /** After a tool's time limit, how long it may clean up before its thread is terminated. */
  abortGraceMs?: number;
  /** How long an idle tool worker thread is kept warm before it ends. */
  workerIdleMs?: number;
}

export function runnerOptionsFromEnv(env: Record<string, string | undefined> = process.env): RunnerOptions {
  const num = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return Number.isFinite(value) && value > 0 ? value : fallback;
  };
  const concurrency = num("JOB_CONCURRENCY", 4);
  return {
    concurrency,
    accountConcurrency: Math.floor(num("JOB_ACCOUNT_CONCURRENCY", Math.max(1, concurrency - 1))),
    leaseSeconds: num("JOB_LEASE_SECONDS", 30),
    queueTimeoutSeconds: num("JOB_QUEUE_TIMEOUT_SECONDS", 1800),
    pollMs: num("JOB_POLL_MS", 1000),
    workerMemoryMb: num("TOOL_WORKER_MEMORY_MB", 512),
    abortGraceMs: num("TOOL_ABORT_GRACE_MS", 2000),
    workerIdleMs: num("TOOL_WORKER_IDLE_MS", 30_000),
  };
}

export interface PassReport {
  interrupted: number;
  queueTimedOut: number;
  purged: number;
  claimed: number;
  /** Webhook deliveries attempted by this pass (a started runner sends them in the background). */
  webhooks?: DeliveryPassReport;
}

/**
 * One job runner (a server's in-process worker, `npm run worker`, or a cron call). Every
 * shared fact lives in the database, so any number of runners can work side by side.
 */
