import { sql } from "drizzle-orm";
import type { SentimentLabel } from "@/lib/ai-visibility/schemas";
import {
  type BatchJudgeItem,
  type BatchJudgement,
  judgeBatch,
  lexiconLabel,
  toSentiment,
} from "@/lib/ai-visibility/sentiment-judge";
import type { Db } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import type { MonitorJudgeInput, MonitorJudgeUsage } from "@/lib/db/schema";
import { EngineError } from "@/lib/providers/engine-retry";
import type { EngineName, Env } from "@/lib/providers/engine-types";
import { listConfiguredEngines } from "@/lib/providers/engines";
import { JUDGE_MODELS } from "@/lib/providers/structured-types";
import { blockProvider, type ProviderLimit, slotSpacingMs } from "@/lib/scheduler/provider-limits";
import { awaitSlot } from "./pacing";

/**
 * The sentiment judge of monitored answers works per run. An answer that mentions the brand is stored with the
 * sentences to judge (`judge_input`) and no sentiment; once none of the run's answers is pending or running, one
 * process leases the run's judgement, sends its answers' sentences to the judge model in a few structured-output
 * requests (up to JUDGE_BATCH_ANSWERS answers each, an array of labels back), stores each answer's label with the
 * method that gave it, and the run then closes. Each request takes a slot from its provider's shared clock like an
 * answer; a failed request, or a verdict missing from the reply, leaves those answers to the lexicon
 * (`sentimentMethod: "lexicon"`). A process that dies mid-judgement leaves its lease to run out: another process
 * takes the run up and judges what is left.
 */

/** Answers judged by one request at most. */
export const JUDGE_BATCH_ANSWERS = 40;
/** Characters of sentences one request carries at most (a single answer's are sent alone when longer). */
const JUDGE_BATCH_CHARS = 16_000;
/** Requests tried per batch: a 429 or an outage is tried once more on a new slot, then the lexicon judges. */
const JUDGE_REQUEST_ATTEMPTS = 2;
/**
 * A costlier judge provider is used when the cheapest one's queue of monitor requests would take this much longer
 * to drain: the judge's requests then do not lengthen the busiest provider's queue.
 */
const JUDGE_SPILL_MS = 1_000;

export interface JudgeStats {
  /** Structured-output requests sent, per provider. */
  requests: Partial<Record<EngineName, number>>;
  /** Answers labelled by the model, and by the lexicon (no engine, a failed request or a missing verdict). */
  byModel: number;
  byLexicon: number;
  rateLimited: number;
  /** Slots not used because the process could not start the request in time. */
  missedSlots: number;
}

export function newJudgeStats(): JudgeStats {
  return { requests: {}, byModel: 0, byLexicon: 0, rateLimited: 0, missedSlots: 0 };
}

export interface JudgeDeps {
  db: Db;
  env: Env;
  owner: string;
  limits: Record<EngineName, ProviderLimit>;
  leaseSeconds: number;
  /** A run taken up more often than this (its processes kept dying) is judged by the lexicon alone. */
  maxAttempts: number;
  retryBaseMs: number;
  signal: AbortSignal;
  stats: JudgeStats;
}

export interface ClaimedJudgement {
  id: string;
  attempts: number;
}

/**
 * Leases the judgement of runs whose answers are all in and some still await their label: `runId` alone, or the
 * oldest such runs whose judgement nobody holds (never taken, or its lease ran out). FOR UPDATE SKIP LOCKED and the
 * lease: one process judges a run at a time.
 */
export async function claimJudgements(
  db: Db,
  owner: string,
  leaseSeconds: number,
  want: number,
  runId?: string,
): Promise<ClaimedJudgement[]> {
  if (want <= 0) return [];
  return rowsOf<{ id: string; judge_attempts: number }>(
    await db.execute(sql`
      update monitor_runs r set judge_lease_owner = ${owner}, judge_attempts = r.judge_attempts + 1,
        judge_lease_expires_at = now() + make_interval(secs => ${leaseSeconds})
      where r.id in (
        select c.id from monitor_runs c
        where c.status = 'running' ${runId ? sql`and c.id = ${runId}` : sql``}
          and (c.judge_lease_expires_at is null or c.judge_lease_expires_at < now())
          and exists (select 1 from monitor_answers a where a.run_id = c.id and a.judge_input is not null)
          and not exists (select 1 from monitor_answers a where a.run_id = c.id and a.status in ('pending', 'running'))
        order by c.created_at
        limit ${want}
        for update skip locked)
      returning r.id, r.judge_attempts`),
  ).map((r) => ({ id: r.id, attempts: Number(r.judge_attempts) }));
}

/** Gives a run's judgement back (this process stops): another process takes it up at once. */
export async function releaseJudgement(db: Db, runId: string, owner: string): Promise<void> {
  await db.execute(sql`update monitor_runs set judge_lease_owner = null, judge_lease_expires_at = null,
      judge_attempts = greatest(0, judge_attempts - 1)
    where id = ${runId} and judge_lease_owner = ${owner}`);
}

interface PendingItem extends BatchJudgeItem {
  id: string;
}

/** Splits the run's answers into requests: at most JUDGE_BATCH_ANSWERS answers and JUDGE_BATCH_CHARS each. */
export function chunkJudgeItems<T extends BatchJudgeItem>(items: readonly T[]): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let chars = 0;
  for (const item of items) {
    const size = item.brand.length + item.sentences.reduce((n, s) => n + s.length + 3, 0) + 32;
    if (current.length > 0 && (current.length >= JUDGE_BATCH_ANSWERS || chars + size > JUDGE_BATCH_CHARS)) {
      chunks.push(current);
      current = [];
      chars = 0;
    }
    current.push(item);
    chars += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * Judges every answer of a leased run that still awaits its label, batch by batch; each batch's labels are stored
 * as soon as they are known, under the lease. Returns true when the run's judgement is done (the caller then
 * closes the run), false when it was cut short (the process stops, or the lease was lost).
 */
export async function judgeRun(deps: JudgeDeps, run: ClaimedJudgement): Promise<boolean> {
  const rows = rowsOf<{ id: string; judge_input: MonitorJudgeInput }>(
    await deps.db.execute(sql`select id, judge_input from monitor_answers
      where run_id = ${run.id} and judge_input is not null order by engine, prompt_index, sample`),
  );
  const items: PendingItem[] = rows.map((r) => ({
    id: r.id,
    brand: r.judge_input.brand,
    sentences: r.judge_input.sentences ?? [],
  }));
  // A run taken up more often than the answers' attempts (its judging processes kept dying) costs no more calls.
  const lexiconOnly = run.attempts > deps.maxAttempts;
  for (const chunk of chunkJudgeItems(items)) {
    if (deps.signal.aborted) return false;
    // Answers without sentences (the brand named only in a link) have nothing to send: the lexicon's neutral.
    const asked = chunk.filter((i) => i.sentences.length > 0);
    const verdict = lexiconOnly || asked.length === 0 ? null : await askOnClock(deps, asked);
    if (verdict === "stopped") return false;
    const byId = new Map<string, SentimentLabel | null>();
    if (verdict) for (const [i, item] of asked.entries()) byId.set(item.id, verdict.labels[i] ?? null);
    const labelled = chunk.map((item) => {
      const label = byId.get(item.id) ?? null;
      if (label && verdict) {
        deps.stats.byModel++;
        return { id: item.id, sentiment: toSentiment(label), method: `model:${verdict.model}` };
      }
      deps.stats.byLexicon++;
      return { id: item.id, sentiment: toSentiment(lexiconLabel(item)), method: "lexicon" };
    });
    const usage: MonitorJudgeUsage[] = verdict
      ? [
          {
            engine: verdict.usage.engine,
            purpose: "sentiment",
            model: verdict.model,
            inputTokens: verdict.usage.inputTokens ?? 0,
            outputTokens: verdict.usage.outputTokens ?? 0,
            attempts: verdict.usage.attempts ?? 1,
            answers: asked.length,
          },
        ]
      : [];
    const stored = await storeLabels(deps, run.id, labelled, usage);
    if (!stored) return false;
  }
  await deps.db.execute(sql`update monitor_runs set judge_lease_owner = null, judge_lease_expires_at = null
    where id = ${run.id} and judge_lease_owner = ${deps.owner}`);
  return true;
}

/**
 * Stores a batch's labels and its model call's usage in one statement, only while this process holds the run's
 * judgement (a process whose lease ran out and was taken over writes nothing), and renews the lease.
 */
async function storeLabels(
  deps: JudgeDeps,
  runId: string,
  labelled: { id: string; sentiment: string; method: string }[],
  usage: MonitorJudgeUsage[],
): Promise<boolean> {
  const rows = rowsOf<{ id: string }>(
    await deps.db.execute(sql`
      with lease as (
        update monitor_runs set judge_usage = judge_usage || ${JSON.stringify(usage)}::jsonb,
          judge_lease_expires_at = now() + make_interval(secs => ${deps.leaseSeconds})
        where id = ${runId} and judge_lease_owner = ${deps.owner}
        returning id
      ), v as (
        select * from unnest(${`{${labelled.map((l) => l.id).join(",")}}`}::uuid[],
          ${`{${labelled.map((l) => l.sentiment).join(",")}}`}::text[],
          ${`{${labelled.map((l) => `"${l.method.replace(/["\\]/g, "\\$&")}"`).join(",")}}`}::text[]) as v(id, sentiment, method)
      ), labelled as (
        update monitor_answers a set sentiment = v.sentiment, sentiment_method = v.method, judge_input = null
        from v, lease where a.id = v.id and a.run_id = lease.id and a.judge_input is not null
        returning a.id
      )
      select id from lease`),
  );
  return rows.length > 0;
}

/**
 * The judge's provider: the cheapest configured one, unless its queue of monitor requests (its next free slot and
 * the answers waiting for it) would take JUDGE_SPILL_MS longer to drain than the least busy one's; then the
 * cheapest of those within that margin.
 */
export async function pickJudgeLane(
  db: Db,
  env: Env,
  limits: Record<EngineName, ProviderLimit>,
): Promise<EngineName | null> {
  const engines = listConfiguredEngines(env).sort(
    (a, b) => JUDGE_MODELS[a].costRank - JUDGE_MODELS[b].costRank,
  );
  if (engines.length <= 1) return engines[0] ?? null;
  const rows = rowsOf<{ engine: EngineName; wait_ms: number; pending: number }>(
    await db.execute(sql`
      select e.engine,
        greatest(0, extract(epoch from (greatest(b.next_slot_at, b.blocked_until) - clock_timestamp())) * 1000)::float8 as wait_ms,
        (select count(*) from monitor_answers a where a.engine = e.engine and a.status = 'pending')::int as pending
      from unnest(${`{${engines.join(",")}}`}::text[]) as e(engine)
      left join provider_budgets b on b.engine = e.engine`),
  );
  const drain = new Map(
    rows.map((r) => [
      r.engine,
      Number(r.wait_ms ?? 0) + Number(r.pending) * slotSpacingMs(limits[r.engine].rpm),
    ]),
  );
  const least = Math.min(...engines.map((e) => drain.get(e) ?? 0));
  return engines.find((e) => (drain.get(e) ?? 0) <= least + JUDGE_SPILL_MS) ?? engines[0]!;
}

/**
 * One batch asked of the judge model on a slot of the shared clock. A 429 blocks the provider for every process
 * (as an answer's does) and, like an outage, is tried once more on a new slot; the adapter itself never retries
 * (a retry of its own would start outside the clock). Null when the lexicon must judge, "stopped" when the process
 * stops meanwhile.
 */
async function askOnClock(
  deps: JudgeDeps,
  items: BatchJudgeItem[],
): Promise<BatchJudgement | null | "stopped"> {
  let attempts = 0;
  while (attempts < JUDGE_REQUEST_ATTEMPTS) {
    const engine = await pickJudgeLane(deps.db, deps.env, deps.limits);
    if (!engine) return null;
    const slot = await awaitSlot(deps.db, engine, deps.limits[engine].rpm, deps.signal, () => {
      deps.stats.missedSlots++;
    });
    if (slot === "stopped") return "stopped";
    if (slot === "missed") return null;
    attempts++;
    deps.stats.requests[engine] = (deps.stats.requests[engine] ?? 0) + 1;
    try {
      return await judgeBatch(engine, items, {
        env: deps.env,
        signal: deps.signal,
        retry: { maxAttempts: 1 },
      });
    } catch (err) {
      if (deps.signal.aborted) return "stopped";
      const engineError = err instanceof EngineError ? err : null;
      if (engineError?.code === "ENGINE_RATE_LIMITED") {
        deps.stats.rateLimited++;
        await blockProvider(deps.db, engine, engineError.options.retryAfterMs ?? deps.retryBaseMs);
      }
      if (!engineError?.retryable) return null;
    }
  }
  return null;
}
