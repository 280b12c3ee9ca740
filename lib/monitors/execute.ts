import { and, eq, sql } from "drizzle-orm";
import { resolveSources } from "@/lib/ai-visibility/resolve-sources";
import { readSiteName } from "@/lib/ai-visibility/site-name";
import { refund } from "@/lib/credits/ledger";
import type { Db } from "@/lib/db/client";
import { redactDbError } from "@/lib/db/errors";
import { rowsOf } from "@/lib/db/rows";
import { type MonitorRunConfig, monitorAnswers } from "@/lib/db/schema";
import { ENGINE_ADAPTERS } from "@/lib/providers/ask-engine";
import { EngineError } from "@/lib/providers/engine-retry";
import type { EngineName, Env } from "@/lib/providers/engine-types";
import { listConfiguredEngines } from "@/lib/providers/engines";
import type { KindWorker, SchedulerContext } from "@/lib/scheduler/kinds";
import {
  blockProvider,
  lockProviderClock,
  type ProviderLimit,
  readProviderLimits,
  takeSlots,
} from "@/lib/scheduler/provider-limits";
import { analyseMonitoredAnswer } from "./analyze";
import { finishRunIfDone, settleRun } from "./finalize";
import {
  type ClaimedJudgement,
  claimJudgements,
  type JudgeStats,
  judgeRun,
  newJudgeStats,
  releaseJudgement,
} from "./judge";
import { awaitSlot, type LocalSlot, localSlot, waitForSlot } from "./pacing";

export interface AnswerWorkerOptions {
  /** Answers this process asks at once, all engines together (MONITOR_CONCURRENCY). */
  concurrency: number;
  /** A running answer whose process vanished is taken over after this long. */
  leaseSeconds: number;
  /** Attempts per answer (rate limits and provider outages are retried, other errors are not). */
  maxAttempts: number;
  /** First retry backoff without Retry-After; doubled on each attempt. */
  retryBaseMs: number;
  /** One answer's time limit. */
  answerTimeoutMs: number;
}

function positive(raw: string | undefined, fallback: number) {
  const v = Number(raw);
  return raw !== undefined && raw.trim() !== "" && Number.isFinite(v) && v > 0 ? v : fallback;
}

export function answerWorkerOptionsFromEnv(env: Env = process.env): AnswerWorkerOptions {
  return {
    concurrency: Math.floor(positive(env.MONITOR_CONCURRENCY, 16)),
    leaseSeconds: positive(env.MONITOR_ANSWER_LEASE_SECONDS, 300),
    maxAttempts: Math.floor(positive(env.MONITOR_ANSWER_ATTEMPTS, 4)),
    retryBaseMs: positive(env.MONITOR_RETRY_BASE_MS, 2000),
    answerTimeoutMs: positive(env.MONITOR_ANSWER_TIMEOUT_MS, 120_000),
  };
}

/** Run judgements one process does at once (each waits on its provider's slots, little else). */
const JUDGE_RUNS_PER_PROCESS = 8;
/** How often a process looks for judgements nobody holds (a vanished process's, once its lease ran out). */
const JUDGE_SCAN_MS = 5_000;

interface ClaimedAnswer {
  id: string;
  run_id: string;
  engine: EngineName;
  prompt: string;
  attempts: number;
  slot_at: Date | string;
  config: MonitorRunConfig;
  /** The slot in this process's clock. */
  local: LocalSlot;
}

/**
 * Claims up to `want` pending answers of one engine for this process, within the provider's limits shared by
 * every process: the provider's row is locked for the transaction, the answers already running count against
 * its concurrency, and each claimed answer gets its own request slot (at most `rpm` a minute). FOR UPDATE SKIP
 * LOCKED: two processes never claim one answer.
 */
async function claimAnswers(
  db: Db,
  engine: EngineName,
  want: number,
  limit: ProviderLimit,
  owner: string,
  leaseSeconds: number,
): Promise<ClaimedAnswer[]> {
  if (want <= 0) return [];
  const claimed = await db.transaction(async (tx) => {
    const clock = await lockProviderClock(tx, engine);
    if (clock.blockedUntil && clock.blockedUntil > clock.now) return null;
    const [busy] = rowsOf<{ n: number }>(
      await tx.execute(sql`select count(*)::int as n from monitor_answers
        where engine = ${engine} and status = 'running' and lease_expires_at > now()`),
    );
    const room = Math.min(want, limit.concurrency - Number(busy?.n ?? 0));
    if (room <= 0) return null;
    const picked = rowsOf<{ id: string }>(
      await tx.execute(sql`
        select id from monitor_answers
        where engine = ${engine} and status = 'pending' and (not_before is null or not_before <= now())
        order by created_at, id
        limit ${room}
        for update skip locked`),
    );
    if (picked.length === 0) return null;
    const slots = await takeSlots(tx, engine, clock, picked.length, limit.rpm);
    const rows = rowsOf<Omit<ClaimedAnswer, "local">>(
      await tx.execute(sql`
        with pick as (
          select * from unnest(${`{${picked.map((p) => p.id).join(",")}}`}::uuid[],
            ${`{${slots.map((s) => `"${s.toISOString()}"`).join(",")}}`}::timestamptz[]) as p(id, slot)
        )
        update monitor_answers a set status = 'running', attempts = a.attempts + 1, slot_at = pick.slot,
          lease_owner = ${owner}, lease_expires_at = pick.slot + make_interval(secs => ${leaseSeconds})
        from pick, monitor_runs r
        where a.id = pick.id and r.id = a.run_id
        returning a.id, a.run_id, a.engine, a.prompt, a.attempts, a.slot_at, r.config`),
    );
    return { rows, clock };
  });
  if (!claimed) return [];
  return claimed.rows.map((row) => ({ ...row, local: localSlot(row.slot_at, claimed.clock) }));
}

/**
 * Fails an answer and gives its credits back, once: the answer's move from running to failed is the guard, and
 * `refund` (lib/credits) writes at most one refund per answer. The refund is the run's own price per answer.
 */
async function failAnswer(
  db: Db,
  answerId: string,
  owner: string | null,
  error: { code: string; message: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [failed] = rowsOf<{ run_id: string; account_id: string; amount: number }>(
      await tx.execute(sql`
        with a as (
          update monitor_answers set status = 'failed', error = ${JSON.stringify(error)}::jsonb, completed_at = now(),
            lease_owner = null, lease_expires_at = null
          where id = ${answerId} and status = 'running' ${owner ? sql`and lease_owner = ${owner}` : sql``}
          returning run_id, account_id
        )
        select a.run_id, a.account_id, (r.credits_charged / greatest(r.answers_planned, 1))::int as amount
        from a join monitor_runs r on r.id = a.run_id`),
    );
    const amount = Number(failed?.amount ?? 0);
    if (!failed || amount <= 0) return false;
    const refunded = await refund(tx, {
      accountId: failed.account_id,
      amount,
      description: `Refund: monitored answer failed (${error.code})`,
      ref: { monitorRunId: failed.run_id, monitorAnswerId: answerId },
    });
    if (!refunded) return false;
    await tx.execute(
      sql`update monitor_runs set credits_refunded = credits_refunded + ${amount}::int where id = ${failed.run_id}`,
    );
    return true;
  });
}

const siteNames = new Map<string, { name: string | null; at: number }>();

/** The site's own name (og:site_name or title), read once an hour per process; brand names given win. */
async function brandNamesFor(config: MonitorRunConfig, ctx: SchedulerContext, signal: AbortSignal) {
  if (config.brandNames.length > 0) return config.brandNames;
  const cached = siteNames.get(config.domain);
  if (cached && Date.now() - cached.at < 3_600_000) return cached.name ? [cached.name] : [];
  const name = await readSiteName(config.domain, ctx.fetch, signal).catch(() => null);
  siteNames.set(config.domain, { name, at: Date.now() });
  return name ? [name] : [];
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0) return resolve();
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(t);
      resolve();
    });
  });

/** This process's monitor answers: claims within the shared limits, asks, analyses, stores or refunds. */
export class AnswerWorker implements KindWorker {
  private readonly running = new Map<string, Promise<void>>();
  private readonly controller = new AbortController();
  private stopped = false;
  private filling: Promise<number> | null = null;
  private again = false;
  private rotate = 0;
  /** Providers that answered 429 to this process, until when (their Retry-After). */
  private readonly blocked = new Map<EngineName, number>();
  /** Runs whose sentiment judgement this process holds. */
  private readonly judging = new Map<string, Promise<void>>();
  private lastJudgeScan = 0;
  readonly stats = {
    asked: 0,
    succeeded: 0,
    failed: 0,
    retried: 0,
    rateLimited: 0,
    /** Answers given back to the queue unasked because the process could not start them in their slot. */
    missedSlots: 0,
    judge: newJudgeStats() as JudgeStats,
  };

  constructor(
    private readonly db: Db,
    private readonly ctx: SchedulerContext,
    readonly options: AnswerWorkerOptions = answerWorkerOptionsFromEnv(ctx.env),
    private readonly limits: Record<EngineName, ProviderLimit> = readProviderLimits(ctx.env),
  ) {}

  private refillTimer: NodeJS.Timeout | undefined;

  /** Answers finishing together are refilled by one claim a few milliseconds later, not one claim each. */
  private refillSoon(): void {
    if (this.stopped || this.refillTimer) return;
    this.refillTimer = setTimeout(() => {
      this.refillTimer = undefined;
      void this.fill();
    }, 10);
  }

  get inFlight(): number {
    return this.running.size;
  }

  /** Runs whose judgement this process is doing. */
  get judgingRuns(): number {
    return this.judging.size;
  }

  fill(): Promise<number> {
    if (this.filling) {
      this.again = true;
      return this.filling;
    }
    this.filling = this.claimAndStart()
      .catch((err) => {
        console.error("[monitors] claiming answers failed", redactDbError(err));
        return 0;
      })
      .finally(() => {
        this.filling = null;
        if (this.again && !this.stopped) {
          this.again = false;
          void this.fill();
        }
      });
    return this.filling;
  }

  private async claimAndStart(): Promise<number> {
    if (this.stopped) return 0;
    const engines = listConfiguredEngines(this.ctx.env);
    if (engines.length === 0) return 0;
    let started = 0;
    // Judgements whose process vanished (lease run out) or that nobody took up: looked for now and then.
    if (Date.now() - this.lastJudgeScan >= JUDGE_SCAN_MS) {
      this.lastJudgeScan = Date.now();
      started += await this.takeJudgements();
    }
    // Engines in turn, starting with a different one each time: no engine's backlog holds the others'.
    const order = engines.map((_, i) => engines[(i + this.rotate) % engines.length]!);
    this.rotate++;
    for (const engine of order) {
      const free = this.options.concurrency - this.running.size;
      if (free <= 0) break;
      const share = Math.max(1, Math.ceil(free / engines.length));
      const claimed = await claimAnswers(
        this.db,
        engine,
        share,
        this.limits[engine],
        this.ctx.owner,
        this.options.leaseSeconds,
      );
      for (const answer of claimed) {
        started++;
        const task = this.answer(answer)
          .catch((err) => console.error(`[monitors] answer ${answer.id} not recorded`, redactDbError(err)))
          .finally(() => {
            this.running.delete(answer.id);
            this.refillSoon();
          });
        this.running.set(answer.id, task);
      }
    }
    return started;
  }

  /** Takes up run judgements (`runId` alone, or any waiting) within this process's share, and starts them. */
  private async takeJudgements(runId?: string): Promise<number> {
    if (this.stopped) return 0;
    const room = JUDGE_RUNS_PER_PROCESS - this.judging.size;
    if (room <= 0 || (runId && this.judging.has(runId))) return 0;
    const claimed = await claimJudgements(
      this.db,
      this.ctx.owner,
      this.options.leaseSeconds,
      runId ? 1 : room,
      runId,
    );
    for (const run of claimed) {
      const task = this.judge(run)
        .catch((err) =>
          console.error(`[monitors] judgement of run ${run.id} not recorded`, redactDbError(err)),
        )
        .finally(() => {
          this.judging.delete(run.id);
          this.refillSoon();
        });
      this.judging.set(run.id, task);
    }
    return claimed.length;
  }

  private async judge(run: ClaimedJudgement): Promise<void> {
    const done = await judgeRun(
      {
        db: this.db,
        env: this.ctx.env,
        owner: this.ctx.owner,
        limits: this.limits,
        leaseSeconds: this.options.leaseSeconds,
        maxAttempts: this.options.maxAttempts,
        retryBaseMs: this.options.retryBaseMs,
        signal: this.controller.signal,
        stats: this.stats.judge,
      },
      run,
    );
    if (done) await finishRunIfDone(this.db, run.id);
    else if (this.stopped) await releaseJudgement(this.db, run.id, this.ctx.owner);
  }

  private async answer(a: ClaimedAnswer): Promise<void> {
    const signal = AbortSignal.any([
      this.controller.signal,
      AbortSignal.timeout(this.options.answerTimeoutMs),
    ]);
    const onTime = await waitForSlot(a.local, this.controller.signal);
    if (this.stopped) return void (await this.handleFailure(a, null));
    // Started later than its slot allows, the request could pass the provider's limit: not sent, the answer goes
    // back to the queue for a new slot (lib/monitors/pacing.ts).
    if (!onTime) {
      this.stats.missedSlots++;
      return void (await this.release(a, 0));
    }
    // A 429 seen meanwhile holds the answers already given a slot: back to the queue until the provider's
    // Retry-After, without counting an attempt (other processes see the block when they next claim).
    const blockedUntil = this.blocked.get(a.engine) ?? 0;
    if (blockedUntil > Date.now()) return void (await this.release(a, blockedUntil - Date.now()));
    this.stats.asked++;
    let outcome: "done" | "retry" = "done";
    try {
      const response = await ENGINE_ADAPTERS[a.engine]({
        prompt: a.prompt,
        signal,
        env: this.ctx.env,
        deadline: Date.now() + this.options.answerTimeoutMs,
        // The shared limits pace the retries (Retry-After blocks the provider for every process).
        retry: { maxAttempts: 1 },
        // A continued turn is one more request to the provider: it waits for a slot of its own.
        beforeFollowUp: async () => {
          const slot = await awaitSlot(this.db, a.engine, this.limits[a.engine].rpm, signal, () => {
            this.stats.missedSlots++;
          });
          // Not started in time (or the process stops): the answer fails this attempt and is asked again later.
          if (slot !== "ok")
            throw new EngineError(
              a.engine,
              "ENGINE_UNAVAILABLE",
              `${a.engine}'s answer could not be continued within its request limit.`,
            );
        },
      });
      const [cited, retrieved, brandNames] = await Promise.all([
        resolveSources(a.engine, response.sources, this.ctx.fetch, signal),
        resolveSources(a.engine, response.retrieved ?? [], this.ctx.fetch, signal),
        brandNamesFor(a.config, this.ctx, signal),
      ]);
      const facts = analyseMonitoredAnswer(response, cited, retrieved, {
        domain: a.config.domain,
        brandNames,
        competitors: a.config.competitors,
      });
      await this.db
        .update(monitorAnswers)
        .set({
          status: "succeeded",
          ...facts,
          answer: response.answer,
          model: response.model,
          usage: { ...response.usage, attempts: a.attempts },
          completedAt: new Date(),
          leaseOwner: null,
          leaseExpiresAt: null,
        })
        .where(
          and(
            eq(monitorAnswers.id, a.id),
            eq(monitorAnswers.status, "running"),
            eq(monitorAnswers.leaseOwner, this.ctx.owner),
          ),
        );
      this.stats.succeeded++;
    } catch (err) {
      outcome = await this.handleFailure(a, err);
    }
    if (outcome !== "done") return;
    // The run's last answer: its judgement is taken up here at once (others find it when its lease runs out).
    const settled = await settleRun(this.db, a.run_id);
    if (settled.state === "judge") await this.takeJudgements(a.run_id);
  }

  /** Gives a claimed answer back to the queue, its attempt not counted, askable again after `waitMs`. */
  private async release(a: ClaimedAnswer, waitMs: number): Promise<void> {
    await this.db
      .update(monitorAnswers)
      .set({
        status: "pending",
        leaseOwner: null,
        leaseExpiresAt: null,
        notBefore: sql`now() + make_interval(secs => ${Math.max(0, waitMs) / 1000})`,
        attempts: sql`greatest(0, ${monitorAnswers.attempts} - 1)`,
      })
      .where(
        and(
          eq(monitorAnswers.id, a.id),
          eq(monitorAnswers.status, "running"),
          eq(monitorAnswers.leaseOwner, this.ctx.owner),
        ),
      );
  }

  private async handleFailure(a: ClaimedAnswer, err: unknown): Promise<"done" | "retry"> {
    if (this.stopped) {
      // The process is stopping: the answer goes back to the queue for another process, not to the refunds.
      await this.release(a, 0);
      return "retry";
    }
    const engineError = err instanceof EngineError ? err : null;
    const retryAfter = engineError?.retryAfterMs;
    if (engineError?.code === "ENGINE_RATE_LIMITED") {
      this.stats.rateLimited++;
      const wait = retryAfter ?? this.options.retryBaseMs;
      this.blocked.set(a.engine, Math.max(this.blocked.get(a.engine) ?? 0, Date.now() + wait));
      await blockProvider(this.db, a.engine, wait);
    }
    if (engineError?.retryable && a.attempts < this.options.maxAttempts && !this.stopped) {
      const wait = retryAfter ?? this.options.retryBaseMs * 2 ** (a.attempts - 1);
      const moved = await this.db
        .update(monitorAnswers)
        .set({
          status: "pending",
          notBefore: sql`now() + make_interval(secs => ${wait / 1000})`,
          leaseOwner: null,
          leaseExpiresAt: null,
        })
        .where(
          and(
            eq(monitorAnswers.id, a.id),
            eq(monitorAnswers.status, "running"),
            eq(monitorAnswers.leaseOwner, this.ctx.owner),
          ),
        )
        .returning({ id: monitorAnswers.id });
      if (moved.length > 0) {
        this.stats.retried++;
        return "retry";
      }
      return "done";
    }
    const error = engineError
      ? { code: engineError.code, message: engineError.message }
      : {
          code: "ANSWER_FAILED",
          message: `${a.engine}'s answer could not be read. Its credits were refunded.`,
        };
    if (!engineError) console.error(`[monitors] answer ${a.id} failed`, err);
    await failAnswer(this.db, a.id, this.ctx.owner, error);
    this.stats.failed++;
    return "done";
  }

  async drain(opts: { untilMs?: number } = {}): Promise<void> {
    const until = opts.untilMs ?? Number.POSITIVE_INFINITY;
    for (;;) {
      if (this.running.size > 0 || this.judging.size > 0) {
        await Promise.race([
          Promise.allSettled([...this.running.values(), ...this.judging.values()]),
          sleep(250),
        ]);
        continue;
      }
      if (this.filling) await this.filling;
      if ((await this.fill()) > 0) continue;
      if ((await this.takeJudgements()) > 0) continue;
      // A fill queued behind the one just awaited may have started answers meanwhile.
      if (this.running.size > 0 || this.judging.size > 0 || this.filling) continue;
      if (Date.now() >= until || this.stopped) return;
      // Answers waiting on a backoff or a provider's Retry-After soon: wait for them rather than return early.
      const [soon] = rowsOf<{ at: Date | string | null }>(
        await this.db.execute(sql`
          select min(greatest(coalesce(a.not_before, now()), coalesce(b.blocked_until, now()))) as at
          from monitor_answers a left join provider_budgets b on b.engine = a.engine
          where a.status = 'pending' and a.engine in (select unnest(${`{${listConfiguredEngines(this.ctx.env).join(",")}}`}::text[]))`),
      );
      if (!soon?.at) return;
      const wait = new Date(soon.at).getTime() - Date.now();
      if (wait > 30_000 || Date.now() + wait > until) return;
      await sleep(Math.max(20, Math.min(wait + 5, 1000)));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.refillTimer);
    this.controller.abort();
    await Promise.allSettled([...this.running.values(), ...this.judging.values()]);
  }
}

/**
 * Housekeeping (any process): answers whose process vanished go back to the queue, or fail and are refunded after
 * their last attempt; runs stuck for a day fail what is left (refunded); runs whose last answer was stored but
 * not closed are closed; runs and answers older than 13 months are deleted.
 */
export async function maintainMonitorAnswers(
  db: Db,
  opts: AnswerWorkerOptions,
  env: Env = process.env,
): Promise<void> {
  // Answers of an engine no longer configured here (its key removed since the run started) cannot be asked:
  // failed and refunded now rather than after a day in the queue. A process with no engine configured at all
  // (a worker started without the AI keys) is no judge of that and leaves them alone.
  const configured = listConfiguredEngines(env);
  const orphaned =
    configured.length === 0
      ? []
      : rowsOf<{ id: string; engine: string }>(
          await db.execute(sql`
      select id, engine from monitor_answers
      where status = 'pending' and not (engine = any(${`{${configured.join(",")}}`}::text[]))
      limit 500`),
        );
  for (const { id, engine } of orphaned) {
    await db.execute(sql`update monitor_answers set status = 'running', lease_owner = null,
      lease_expires_at = now() where id = ${id} and status = 'pending'`);
    await failAnswer(db, id, null, {
      code: "ENGINE_NOT_CONFIGURED",
      message: `${engine} is no longer available on this service. The answer's credits were refunded.`,
    });
  }
  await db.execute(sql`
    update monitor_answers set status = 'pending', lease_owner = null, lease_expires_at = null,
      not_before = now() + interval '5 seconds'
    where status = 'running' and lease_expires_at < now() and attempts < ${opts.maxAttempts}`);
  const lost = rowsOf<{ id: string }>(
    await db.execute(sql`
      select id from monitor_answers
      where (status = 'running' and lease_expires_at < now() and attempts >= ${opts.maxAttempts})
        or (status = 'pending' and created_at < now() - interval '24 hours')
      limit 500`),
  );
  for (const { id } of lost) {
    await db.execute(sql`update monitor_answers set status = 'running', lease_owner = null,
      lease_expires_at = now() where id = ${id} and status = 'pending'`);
    await failAnswer(db, id, null, {
      code: "ANSWER_INTERRUPTED",
      message: "The answer could not be obtained in time. Its credits were refunded.",
    });
  }
  const open = rowsOf<{ id: string }>(
    await db.execute(sql`
      select r.id from monitor_runs r
      where r.status = 'running'
        and not exists (select 1 from monitor_answers a where a.run_id = r.id and a.status in ('pending', 'running'))
      limit 500`),
  );
  for (const { id } of open) await finishRunIfDone(db, id);
  await db.execute(sql`delete from monitor_runs where expires_at < now()`);
}
