import { randomBytes } from "node:crypto";
import { purgeObservations } from "@/lib/ai-visibility/observations";
import type { Db } from "@/lib/db/client";
import { redactDbError } from "@/lib/db/errors";
import { purgeRateLimitWindows } from "@/lib/db/rate-limit-windows";
import type { Job } from "@/lib/db/schema";
import { guardedFetch } from "@/lib/fetch";
import { readBotRangesConfig } from "@/lib/providers/bot-ranges/published-ranges";
import { SchedulerHost } from "@/lib/scheduler/host";
import type { ScheduleKind } from "@/lib/scheduler/kinds";
import type { Env } from "@/lib/tools/types";
import { rangeRefreshEnabled, refreshStoredRangeFeeds } from "@/lib/tracking/catalog/ip-ranges/stored-feeds";
import { rawRetentionMonths } from "@/lib/tracking/raw-visits/partitions";
import { rawVisits } from "@/lib/tracking/raw-visits/store";
import { type DeliveryPassReport, deliverDueWebhooks, purgeWebhookHistory } from "@/lib/webhooks/deliver";
import { JOBS_CHANNEL, jobEvents } from "./events";
import { type Execution, executeJob } from "./execute-job";
import { claimPendingJobs, failQueueTimeouts, purgeExpiredJobs, recoverInterruptedJobs } from "./queue";
import { type PassReport, type RunnerOptions, runnerOptionsFromEnv } from "./runner-options";
import { SCHEDULE_KINDS } from "./scheduled";
import { type ToolWorkerPool, toolPoolFor } from "./tool-pool";
import { catalogToolSource, type ToolSource } from "./tool-source";
import { failJob } from "./transitions";

/**
 * How often a runner does its hourly housekeeping: the raw visits' months (created ahead, dropped past the
 * retention) and the bot operators' IP range lists that are due.
 */
const HOURLY_PASS_MS = 60 * 60 * 1000;

export {
  claimPendingJobs,
  recoverInterruptedJobs,
} from "./queue";
export { type PassReport, type RunnerOptions, runnerOptionsFromEnv } from "./runner-options";
export {
  catalogToolSource,
  type ToolSource,
  toolSourceFrom,
} from "./tool-source";

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
  private lastPartitionPass = 0;
  private readonly rawRetentionMonths: number;
  private lastRangePass = 0;
  private refreshingRanges: Promise<void> | null = null;
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
    this.rawRetentionMonths = rawRetentionMonths(env as Record<string, string | undefined>);
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
    await settle(this.refreshingRanges);
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
      await this.maintainVisitPartitions();
      const ranges = this.refreshRangeFeeds();
      // A one-off pass (cron, tests) waits for the lists; a started runner fetches them beside its work.
      if (!this.started) await ranges;
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

  /**
   * The raw visits' months (lib/tracking/raw-visits): created ahead, dropped past TRACKING_RAW_RETENTION_MONTHS. At
   * most once an hour per runner (a month's partition exists months before its first visit); a failure (a lock
   * not granted in time) is logged and tried again on the next pass, without holding up the jobs.
   */
  private async maintainVisitPartitions(): Promise<void> {
    if (Date.now() - this.lastPartitionPass < HOURLY_PASS_MS) return;
    try {
      await rawVisits.maintain(this.db, new Date(), this.rawRetentionMonths);
      this.lastPartitionPass = Date.now();
    } catch (err) {
      console.error(`[runner ${this.id}] visit partitions not maintained`, redactDbError(err));
    }
  }

  /**
   * The bot operators' IP range lists (lib/tracking/catalog/ip-ranges/stored-feeds), fetched once a day when
   * TRACKING_RANGES_REFRESH allows: looked at most once an hour per runner, the lists due claimed in the database
   * so one runner fetches each. A list that fails keeps the one fetched before; the reason is logged and stored.
   */
  private refreshRangeFeeds(): Promise<void> {
    const env = this.env as Record<string, string | undefined>;
    if (this.refreshingRanges || !rangeRefreshEnabled(env)) return this.refreshingRanges ?? Promise.resolve();
    if (Date.now() - this.lastRangePass < HOURLY_PASS_MS) return Promise.resolve();
    this.lastRangePass = Date.now();
    this.refreshingRanges = (async () => {
      const outcomes = await refreshStoredRangeFeeds(this.db, { config: readBotRangesConfig(env) });
      const failed = outcomes.flatMap((o) => (o.ok ? [] : [`${o.key} (${o.error})`]));
      if (failed.length > 0) {
        console.warn(
          `[runner ${this.id}] ${failed.length} of ${outcomes.length} IP range lists not refreshed, the lists before kept: ${failed.join(", ")}`,
        );
      }
    })()
      .catch((err) => {
        console.error(`[runner ${this.id}] IP range lists not refreshed`, redactDbError(err));
      })
      .finally(() => {
        this.refreshingRanges = null;
      });
    return this.refreshingRanges;
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

  /** What executeJob needs of this runner. */
  private get execution(): Execution {
    return {
      db: this.db,
      id: this.id,
      options: this.options,
      tools: this.tools,
      env: this.env,
      pool: this.pool,
      controllers: this.controllers,
    };
  }

  private execute(job: Job): Promise<void> {
    return executeJob(this.execution, job);
  }
}
