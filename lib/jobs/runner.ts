import { randomBytes } from "node:crypto";
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { purgeObservations } from "@/lib/ai-visibility/observations";
import type { Db } from "@/lib/db/client";
import { redactDbError } from "@/lib/db/errors";
import { purgeRateLimitWindows } from "@/lib/db/rate-limit-windows";
import { rowsOf } from "@/lib/db/rows";
import { type Job, jobs } from "@/lib/db/schema";
import { ToolError } from "@/lib/errors";
import { guardedFetch } from "@/lib/fetch";
import { SchedulerHost } from "@/lib/scheduler/host";
import type { ScheduleKind } from "@/lib/scheduler/kinds";
import type { AnyTool, AnyToolRunner, Env } from "@/lib/tools/types";
import { type DeliveryPassReport, deliverDueWebhooks, purgeWebhookHistory } from "@/lib/webhooks/deliver";
import { JOBS_CHANNEL, jobEvents } from "./events";
import { SCHEDULE_KINDS } from "./scheduled";
import { type RunningTask, type ToolWorkerPool, toolPoolFor, WorkerLimitError } from "./tool-pool";
import { catalogToolSource, describeFailure, type ToolSource } from "./tool-source";
import { completeJob, failJob } from "./transitions";

export {
  catalogToolSource,
  describeFailure,
  type ToolEntry,
  type ToolSource,
  toolSourceFrom,
} from "./tool-source";

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
const delay = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

export class JobRunner {
  readonly id = `w_${randomBytes(6).toString("hex")}`;
  private readonly running = new Map<string, Promise<void>>();
  private readonly controllers = new Map<string, AbortController>();
  private readonly pool: ToolWorkerPool;
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private stopped = false;
  private passing: Promise<PassReport> | null = null;
  private delivering: Promise<DeliveryPassReport> | null = null;
  private again = false;
  private readonly onCreated = () => void this.tick({ claimOnly: true });
  private lastMaintenance = 0;
  private unlisten: (() => Promise<void>) | null = null;
  /** Scheduled work (monitors, …): due schedules claimed on each pass, their work done beside the jobs. */
  readonly schedules: SchedulerHost;

  constructor(
    private readonly db: Db,
    readonly options: RunnerOptions = runnerOptionsFromEnv(),
    private readonly tools: ToolSource = catalogToolSource,
    private readonly env: Env = process.env,
    scheduleKinds: readonly ScheduleKind[] = SCHEDULE_KINDS,
  ) {
    this.schedules = new SchedulerHost(db, scheduleKinds, {
      owner: this.id,
      env: env as Record<string, string | undefined>,
      fetch: guardedFetch,
    });
    this.pool = toolPoolFor({
      memoryMb: options.workerMemoryMb ?? 512,
      graceMs: options.abortGraceMs ?? 2000,
      idleMs: options.workerIdleMs ?? 30_000,
    });
    this.pool.reserve(options.concurrency);
  }

  /** The tool worker threads this runner uses (shared by the runners of this process with its limits). */
  get workers(): ToolWorkerPool {
    return this.pool;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    jobEvents.on("created", this.onCreated);
    this.listenForJobs();
    const loop = () => {
      if (this.stopped) return;
      this.tick().finally(() => {
        if (!this.stopped) this.timer = setTimeout(loop, this.options.pollMs);
      });
    };
    loop();
  }

  /**
   * Stops claiming; jobs still running are failed as INTERRUPTED and refunded, and their tools aborted. The
   * pass and webhook batch under way get `waitMs` to finish (a pass may still claim jobs, which are then
   * failed here too; a delivery left mid-flight is retried by its lease). Idempotent: later calls share the
   * first one's promise.
   */
  stop(waitMs = 5_000): Promise<void> {
    this.stopping ??= this.stopNow(waitMs);
    return this.stopping;
  }

  private stopping: Promise<void> | undefined;

  private async stopNow(waitMs: number): Promise<void> {
    this.stopped = true;
    jobEvents.off("created", this.onCreated);
    clearTimeout(this.timer);
    const settle = (p: Promise<unknown> | null | undefined) =>
      p ? Promise.race([p.catch(() => {}), delay(waitMs)]) : undefined;
    await settle(this.unlisten?.());
    await settle(this.passing);
    await settle(this.delivering);
    await settle(this.schedules.stop());
    // All at once: each is its own transaction, guarded by the lease, so a job refunds once.
    await Promise.all(
      [...this.running.keys()].map(async (jobId) => {
        try {
          await failJob(
            this.db,
            jobId,
            {
              code: "INTERRUPTED",
              message: "The server stopped while the job was running. The credits were refunded.",
            },
            { from: ["processing"], leaseOwner: this.id },
          );
        } catch (err) {
          // The database is gone: the lease runs out and the next runner's recovery fails and refunds it.
          console.error(`[job ${jobId}] not recorded as interrupted`, redactDbError(err));
        }
        this.controllers.get(jobId)?.abort();
      }),
    );
  }

  /** Waits until every job this runner started has finished. */
  async drain(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running.values()]);
    await this.schedules.drain({ untilMs: Date.now() + 60_000 });
  }

  /**
   * On Postgres, a job created by another process (NOTIFY jobs_created, sent by the creating statement) wakes
   * this runner at once instead of at its next poll. PGlite: the in-process event and the poll.
   */
  private listenForJobs(): void {
    const client = (this.db as unknown as { $client?: Record<string, unknown> }).$client;
    if (!client || typeof client.listen !== "function" || !("unsafe" in client)) return;
    const listen = client.listen as (
      channel: string,
      fn: () => void,
    ) => Promise<{ unlisten: () => Promise<void> }>;
    listen(JOBS_CHANNEL, this.onCreated)
      .then((l) => {
        if (this.stopped) void l.unlisten().catch(() => {});
        else this.unlisten = l.unlisten;
      })
      .catch((err) => console.error(`[runner ${this.id}] LISTEN failed; polling`, redactDbError(err)));
  }

  /**
   * A pass now, or right after the one under way (never two at once in one runner). A wake-up for new work
   * (`claimOnly`) skips the housekeeping (recovery, timeouts, purges) unless a poll interval has passed since
   * it last ran, so a job is claimed in one statement.
   */
  tick(opts: { claimOnly?: boolean } = {}): Promise<PassReport | undefined> {
    if (this.passing) {
      this.again = true;
      // The caller that started this pass logs its failure.
      return this.passing.catch(() => undefined);
    }
    const maintenance = !opts.claimOnly || Date.now() - this.lastMaintenance >= this.options.pollMs;
    this.passing = this.pass({ maintenance }).finally(() => {
      this.passing = null;
      if (this.again && !this.stopped) {
        this.again = false;
        void this.tick({ claimOnly: true });
      }
    });
    return this.passing.catch((err) => {
      console.error(`[runner ${this.id}] pass failed`, redactDbError(err));
      return undefined;
    });
  }

  /** Recovery, queue timeouts and purging, then claims up to the free concurrency and starts the jobs. */
  async pass(opts: { maintenance?: boolean } = {}): Promise<PassReport> {
    let interrupted = 0;
    let queueTimedOut = 0;
    let purged = 0;
    if (opts.maintenance !== false) {
      this.lastMaintenance = Date.now();
      interrupted = await recoverInterruptedJobs(this.db);
      queueTimedOut = await failQueueTimeouts(this.db, this.options.queueTimeoutSeconds);
      purged = await purgeExpiredJobs(this.db);
      await purgeRateLimitWindows(this.db);
      await purgeObservations(this.db);
      await purgeWebhookHistory(this.db);
    }
    const free = this.options.concurrency - this.running.size;
    const claimed =
      free > 0 && !this.stopped
        ? await claimPendingJobs(
            this.db,
            this.id,
            free,
            this.options.leaseSeconds,
            this.options.accountConcurrency ?? Math.max(1, this.options.concurrency - 1),
          )
        : [];
    for (const job of claimed) {
      // With the database gone the outcome cannot be recorded: the job keeps its lease, and the
      // recovery pass fails and refunds it once the lease runs out and the database is back.
      const run = this.execute(job)
        .catch((err) => console.error(`[job ${job.id}] outcome not recorded`, redactDbError(err)))
        .finally(() => {
          this.running.delete(job.id);
          // A started runner refills its free slot at once; a one-off pass (cron, tests) does not loop.
          if (this.started && !this.stopped) void this.tick({ claimOnly: true });
        });
      this.running.set(job.id, run);
    }
    // Schedules: due ones become runs; a started runner works them in the background, a one-off pass (cron)
    // waits for what it started, within the cron call's time.
    await this.schedules.pass({
      maintenance: opts.maintenance !== false,
      wait: !this.started && !this.stopped,
    });
    // Webhooks: a started runner sends the due deliveries beside its jobs (one batch at a time, never holding
    // up the next claim); a one-off pass (cron, tests) waits for them.
    const deliveries = this.deliverWebhooks();
    const webhooks = this.started ? undefined : await deliveries;
    return { interrupted, queueTimedOut, purged, claimed: claimed.length, ...(webhooks ? { webhooks } : {}) };
  }

  private deliverWebhooks(): Promise<DeliveryPassReport | undefined> {
    if (this.delivering || this.stopped) return Promise.resolve(undefined);
    this.delivering = deliverDueWebhooks(this.db);
    return this.delivering
      .catch((err) => {
        console.error(`[runner ${this.id}] webhook deliveries failed`, redactDbError(err));
        return undefined;
      })
      .finally(() => {
        this.delivering = null;
      });
  }

  private async execute(job: Job): Promise<void> {
    const tool = this.tools.definition(job.tool);
    const runner = tool && !tool.unavailable ? await this.loadRunner(job) : undefined;
    if (!tool || !runner) {
      await failJob(
        this.db,
        job.id,
        {
          code: "TOOL_UNAVAILABLE",
          message: tool
            ? `The ${tool.title} tool is not available on this server yet. The credits for this job were refunded.`
            : `Unknown tool ${job.tool}. The credits for this job were refunded.`,
        },
        { leaseOwner: this.id },
      );
      return;
    }
    const controller = new AbortController();
    this.controllers.set(job.id, controller);
    const heartbeat = setInterval(
      () => void renewLease(this.db, job.id, this.id, this.options.leaseSeconds).catch(() => {}),
      Math.max(200, (this.options.leaseSeconds * 1000) / 3),
    );
    let task: RunningTask | undefined;
    try {
      const input = tool.input.parse(job.input);
      const file = tool.runsIn === "main" ? undefined : this.tools.runnerFile?.(job.tool);
      let result: unknown;
      if (file) {
        task = this.pool.run(
          { file, input, jobId: job.id, accountId: job.accountId, env: { ...this.env } },
          { timeoutMs: tool.timeoutMs, signal: controller.signal },
        );
        result = await task.outcome.catch((err) => {
          throw this.describeLimit(err, job, tool);
        });
      } else {
        result = await this.runHere(job, tool, runner, input, controller);
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
        this.db,
        job.id,
        this.id,
        checked.data,
        onCompleted &&
          ((tx, completed) =>
            onCompleted(tx, { job: completed, input, result: checked.data, output: result })),
      );
    } catch (err) {
      controller.abort();
      await failJob(this.db, job.id, describeFailure(err, job.id), {
        from: ["processing"],
        leaseOwner: this.id,
      });
    } finally {
      clearInterval(heartbeat);
      this.controllers.delete(job.id);
      // The slot stays taken until the thread is free: it answered the abort, or it was terminated.
      await task?.released;
    }
  }

  /** A tool that runs in this process (`runsIn: "main"`, or a test's in-process tool), with `ctx.db`. */
  private async runHere(
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
        reject(this.describeLimit(new WorkerLimitError("time"), job, tool));
      }, tool.timeoutMs);
    });
    const ctx = {
      jobId: job.id,
      accountId: job.accountId,
      signal: controller.signal,
      fetch: guardedFetch,
      env: this.env,
      db: this.db,
    };
    try {
      return await Promise.race([runner.run(input, ctx), timedOut]);
    } finally {
      clearTimeout(timeout);
    }
  }

  /** The customer's words for a tool stopped at a limit; any other error passes through. */
  private describeLimit(err: unknown, job: Job, tool: AnyTool): unknown {
    if (!(err instanceof WorkerLimitError)) return err;
    if (err.limit === "time") {
      return new ToolError(
        "TIMEOUT",
        `The ${job.tool} job took longer than ${Math.round(tool.timeoutMs / 1000)} s and was stopped. The credits were refunded.`,
      );
    }
    return new ToolError(
      "MEMORY_LIMIT",
      `The ${job.tool} job needed more than ${this.pool.options.memoryMb} MB of memory and was stopped. The credits were refunded.`,
    );
  }

  /** A runner that fails to load (a broken module) is a failed, refunded job, not a crashed pass. */
  private async loadRunner(job: Job): Promise<AnyToolRunner | undefined> {
    try {
      return await this.tools.runner(job.tool);
    } catch (err) {
      console.error(`[job ${job.id}] could not load the ${job.tool} runner`, err);
      return undefined;
    }
  }
}

/**
 * Lock key of the claim: claims run one at a time across every process on the database, so the per-account
 * count they read is the one they leave (a claim is one short statement; jobs run long).
 */
const CLAIM_LOCK_KEY = 0x6a6f6273; // "jobs"

/**
 * Claims pending jobs fairly across accounts, with FOR UPDATE SKIP LOCKED so runners never take the same job.
 *
 * Fairness is round-robin by load: each account's pending jobs are taken oldest first, and a job's rank is its
 * account's running jobs plus its place in that account's queue, so a free slot goes to the account running
 * the fewest, and among equals to the oldest job. An account never holds more than `perAccount` jobs
 * processing at once on the whole database: one account flooding the queue (with pages that take a minute to
 * fail, refunded, so the flood is free) leaves the other slots to everyone else.
 */
export async function claimPendingJobs(
  db: Db,
  workerId: string,
  limit: number,
  leaseSeconds: number,
  perAccount: number = limit,
): Promise<Job[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK_KEY})`);
    const picked = rowsOf<{ id: string }>(
      await tx.execute(sql`
        with running as (
          select account_id, count(*)::int as n from jobs where status = 'processing' group by account_id
        ), waiting as (
          select distinct account_id from jobs where status = 'pending'
        ), ranked as (
          select q.id, q.created_at, coalesce(r.n, 0) + q.k as rank
          from waiting w
          left join running r on r.account_id = w.account_id
          cross join lateral (
            select j.id, j.created_at, row_number() over (order by j.created_at, j.id) as k
            from jobs j
            where j.status = 'pending' and j.account_id = w.account_id
            order by j.created_at, j.id
            limit ${limit}
          ) q
          where coalesce(r.n, 0) + q.k <= ${perAccount}
        )
        select id from ranked order by rank, created_at, id limit ${limit}`),
    );
    if (picked.length === 0) return [];
    const ids = picked.map((p) => p.id);
    const lockable = tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(inArray(jobs.id, ids), eq(jobs.status, "pending")))
      .for("update", { skipLocked: true });
    return (
      tx
        .update(jobs)
        .set({
          status: "processing",
          startedAt: sql`now()`,
          leaseOwner: workerId,
          leaseExpiresAt: sql`now() + make_interval(secs => ${leaseSeconds})`,
          attempts: sql`${jobs.attempts} + 1`,
        })
        // ARRAY(…) is evaluated once: as `id IN (…)` the planner may run the locking subquery again per row.
        .where(and(sql`${jobs.id} = any(array(${lockable}))`, eq(jobs.status, "pending")))
        .returning()
    );
  });
}

export async function renewLease(
  db: Db,
  jobId: string,
  workerId: string,
  leaseSeconds: number,
): Promise<void> {
  await db
    .update(jobs)
    .set({ leaseExpiresAt: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, "processing"), eq(jobs.leaseOwner, workerId)));
}

/** A processing job whose lease ran out lost its worker (crash, kill, restart): failed and refunded. */
export async function recoverInterruptedJobs(db: Db): Promise<number> {
  const stale = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.status, "processing"), lt(jobs.leaseExpiresAt, sql`now()`)))
    .limit(100);
  let count = 0;
  for (const { id } of stale) {
    const failed = await failJob(
      db,
      id,
      {
        code: "INTERRUPTED",
        message: "The job was interrupted (its worker stopped). The credits were refunded.",
      },
      { from: ["processing"] },
    );
    // Another runner may have recovered it first; the transition lets only one refund.
    if (failed) count++;
  }
  return count;
}

export async function failQueueTimeouts(db: Db, queueTimeoutSeconds: number): Promise<number> {
  const stale = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.status, "pending"),
        lt(jobs.createdAt, sql`now() - make_interval(secs => ${queueTimeoutSeconds})`),
      ),
    )
    .limit(100);
  let count = 0;
  for (const { id } of stale) {
    const failed = await failJob(
      db,
      id,
      { code: "QUEUE_TIMEOUT", message: "The job waited too long to start. The credits were refunded." },
      { from: ["pending"] },
    );
    if (failed) count++;
  }
  return count;
}

/** Jobs and results are kept 7 days; the ledger keeps its rows (their job id becomes null). */
export async function purgeExpiredJobs(db: Db): Promise<number> {
  const rows = await db.delete(jobs).where(lt(jobs.expiresAt, sql`now()`)).returning({ id: jobs.id });
  return rows.length;
}
