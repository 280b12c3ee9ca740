import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { chargeWithinCap, refusedRun, type SkipReason } from "@/lib/credits/capped-charge";
import type { Db, DbOrTx, Tx } from "@/lib/db/client";
import {
  type Monitor,
  type MonitorAnswer,
  type MonitorRun,
  type MonitorRunConfig,
  monitorAnswers,
  monitorRuns,
  monitors,
} from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { EngineName } from "@/lib/providers/engine-types";
import type { MailMessage } from "@/lib/providers/smtp/mailer";
import { decodeCursor, encodeCursor } from "./cursor";
import { CREDITS_PER_ANSWER } from "./estimate";
import { notifyRunSkipped, type SkipDetail } from "./notify";
import type { AnswerView, ListRunsQuery, RunList, RunStarted, RunView } from "./schemas";
import { nextRunOf, requireMonitor } from "./service";

export type RunOutcome =
  | { status: "running"; run: MonitorRun; replayed?: boolean }
  | {
      status: "skipped";
      run: MonitorRun | null;
      reason: SkipReason;
      detail: SkipDetail;
      /** The owners' emails, to send once the transaction has committed. */
      mails: MailMessage[];
    };

function runConfigOf(m: Monitor): MonitorRunConfig {
  return {
    domain: m.domain,
    prompts: m.prompts,
    engines: m.engines,
    samples: m.samples,
    competitors: m.competitors,
    brandNames: m.brandNames,
  };
}

/**
 * Creates a run of a monitor, charged in ONE statement: the balance is taken only when it covers the whole run
 * and the month's spend stays within the monitor's cap (the conditional UPDATE is the guard, a balance never
 * goes below zero), and the run, its spend ledger row (unique per run) and its pending answers are written by
 * the same statement. When the balance or the cap cannot cover it nothing is charged; a scheduled run is then
 * recorded as skipped with its reason (and the owner told); a manual run is refused.
 */
async function startRun(
  tx: Tx,
  m: Monitor,
  opts: { trigger: "schedule" | "manual"; scheduledFor?: Date; idempotencyKey?: string },
): Promise<RunOutcome> {
  const config = runConfigOf(m);
  const planned = config.prompts.length * config.engines.length * config.samples;
  const cost = planned * CREDITS_PER_ANSWER;
  const id = randomUUID();
  const scheduledFor = opts.scheduledFor?.toISOString() ?? null;
  const monthStart = sql`(date_trunc('month', now() at time zone ${m.timeZone}) at time zone ${m.timeZone})`;
  // The monitor's row is locked first (a scheduled claim holds it already): two runs of one monitor started at
  // once are charged one after the other, the second seeing the first's spend against the monthly cap.
  await tx.execute(sql`select id from monitors where id = ${m.id} for update`);
  if (opts.idempotencyKey) {
    const [replay] = await tx
      .select()
      .from(monitorRuns)
      .where(and(eq(monitorRuns.monitorId, m.id), eq(monitorRuns.idempotencyKey, opts.idempotencyKey)));
    if (replay) return { status: "running", run: replay, replayed: true };
  }
  const outcome = await chargeWithinCap(tx, {
    accountId: m.accountId,
    cost,
    description: `Monitor run ${id} (${m.domain}): ${planned} answers`,
    ref: { monitorRunId: id },
    low: { monitorId: m.id, runId: id },
    cap: m.monthlyCreditCap,
    spent: sql`select coalesce(sum(credits_charged - credits_refunded), 0)::int as total from monitor_runs
      where monitor_id = ${m.id} and created_at >= ${monthStart}`,
    work: sql`run as (
        insert into monitor_runs (id, monitor_id, account_id, trigger, scheduled_for, status, config, answers_planned,
          credits_charged, idempotency_key)
        select ${id}, ${m.id}, ${m.accountId}, ${opts.trigger}, ${scheduledFor}::timestamptz, 'running',
          ${JSON.stringify(config)}::jsonb, ${planned}::int, ${cost}::int, ${opts.idempotencyKey ?? null}::text
        from charged
        returning id
      ), answers as (
        insert into monitor_answers (run_id, monitor_id, account_id, engine, prompt_index, prompt, sample)
        select run.id, ${m.id}, ${m.accountId}, e.engine, p.ord - 1, p.prompt, s.sample
        from run,
          unnest(${`{${config.engines.join(",")}}`}::text[]) with ordinality as e(engine, eord),
          jsonb_array_elements_text(${JSON.stringify(config.prompts)}::jsonb) with ordinality as p(prompt, ord),
          generate_series(1, ${config.samples}::int) as s(sample)
      )`,
    from: sql`run`,
  });
  if (outcome.charged) {
    const [run] = await tx.select().from(monitorRuns).where(eq(monitorRuns.id, id));
    return { status: "running", run: run! };
  }
  const { reason, detail } = outcome;
  if (opts.trigger === "manual") return { status: "skipped", run: null, reason, detail, mails: [] };
  const [run] = await tx
    .insert(monitorRuns)
    .values({
      id,
      monitorId: m.id,
      accountId: m.accountId,
      trigger: opts.trigger,
      scheduledFor: opts.scheduledFor,
      status: "skipped",
      skipReason: reason,
      skipDetail: { ...detail },
      config,
      answersPlanned: planned,
      completedAt: new Date(),
    })
    .returning();
  const mails = await notifyRunSkipped(tx, m, run!, reason, detail);
  return { status: "skipped", run: run!, reason, detail, mails };
}

/**
 * POST /monitors/{id}/run: a run now, charged like a scheduled one. 402 when the balance cannot cover it, 400
 * when the monitor's monthly cap would be passed; nothing is charged then.
 */
export async function runMonitorNow(
  db: Db,
  accountId: string,
  id: string,
  opts: { idempotencyKey?: string } = {},
): Promise<RunStarted> {
  const outcome = await db.transaction(async (tx) => {
    const m = await requireMonitor(tx, accountId, id);
    if (m.domainId === null) {
      throw new AppError(
        "FORBIDDEN_SCOPE",
        `The domain ${m.domain} is no longer registered on this account.`,
        {
          domain: m.domain,
        },
      );
    }
    return startRun(tx, m, { trigger: "manual", idempotencyKey: opts.idempotencyKey });
  });
  if (outcome.status === "skipped") throw refusedRun(outcome, "the monitor's");
  const run = outcome.run;
  return {
    id: run.id,
    monitorId: run.monitorId,
    status: run.status,
    answersPlanned: run.answersPlanned,
    creditsCharged: run.creditsCharged,
  };
}

function answerView(a: MonitorAnswer): AnswerView {
  return {
    engine: a.engine as EngineName,
    prompt: a.prompt,
    sample: a.sample,
    status: a.status,
    mentioned: a.mentioned,
    position: a.mentioned ? a.position : null,
    sentiment: a.sentiment,
    sentimentMethod: a.sentimentMethod,
    cited: a.cited ?? [],
    retrieved: a.retrieved ?? [],
    queries: a.queries ?? [],
    competitors: a.competitors ?? [],
    answer: a.answer,
    model: a.model,
    ...(a.error ? { error: a.error } : {}),
  };
}

function runView(r: MonitorRun, answers: MonitorAnswer[]): RunView {
  return {
    id: r.id,
    monitorId: r.monitorId,
    trigger: r.trigger,
    status: r.status,
    skipReason: r.skipReason,
    skipDetail: r.skipDetail ?? null,
    scheduledFor: r.scheduledFor?.toISOString() ?? null,
    answersPlanned: r.answersPlanned,
    creditsCharged: r.creditsCharged,
    creditsRefunded: r.creditsRefunded,
    createdAt: r.createdAt.toISOString(),
    completedAt: r.completedAt?.toISOString() ?? null,
    answers: answers
      .sort(
        (a, b) => a.promptIndex - b.promptIndex || a.engine.localeCompare(b.engine) || a.sample - b.sample,
      )
      .map(answerView),
  };
}

/** A monitor's runs, newest first, each with its answers; cursor-paged. */
export async function listRuns(
  db: DbOrTx,
  accountId: string,
  monitorId: string,
  query: ListRunsQuery,
): Promise<RunList> {
  await requireMonitor(db, accountId, monitorId);
  const where = [eq(monitorRuns.monitorId, monitorId)];
  if (query.cursor) {
    const c = decodeCursor(query.cursor);
    where.push(
      sql`(${monitorRuns.createdAt}, ${monitorRuns.id}) < (${c.createdAt}::timestamptz, ${c.id}::uuid)`,
    );
  }
  const rows = await db
    .select({
      r: monitorRuns,
      t: sql<string>`to_char(${monitorRuns.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(monitorRuns)
    .where(and(...where))
    .orderBy(desc(monitorRuns.createdAt), desc(monitorRuns.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const ids = page.map((p) => p.r.id);
  const answers = ids.length
    ? await db.select().from(monitorAnswers).where(inArray(monitorAnswers.runId, ids))
    : [];
  const byRun = new Map<string, MonitorAnswer[]>();
  for (const a of answers) byRun.set(a.runId, [...(byRun.get(a.runId) ?? []), a]);
  const last = page[page.length - 1];
  return {
    runs: page.map((p) => runView(p.r, byRun.get(p.r.id) ?? [])),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.t, last.r.id) : null,
  };
}

/** Monitors that are due now: one run per slot, then the next slot (the scheduler kind's claim). */
export async function startDueRun(tx: Tx, monitorId: string, due: Date): Promise<RunOutcome | null> {
  const [m] = await tx.select().from(monitors).where(eq(monitors.id, monitorId));
  if (!m) return null;
  // The next slot strictly after now: a monitor whose process was down for days runs once, not once per missed slot.
  const next = nextRunOf(m, new Date(Math.max(Date.now(), due.getTime())));
  await tx.update(monitors).set({ nextRunAt: next }).where(eq(monitors.id, m.id));
  if (m.domainId === null) return null;
  // The slot's unique index makes a second run of the same slot impossible even if the row were claimed twice.
  const existing = await tx
    .select({ id: monitorRuns.id })
    .from(monitorRuns)
    .where(and(eq(monitorRuns.monitorId, m.id), eq(monitorRuns.scheduledFor, due)));
  if (existing.length > 0) return null;
  return startRun(tx, m, { trigger: "schedule", scheduledFor: due });
}
