import { and, desc, eq, lt, sql } from "drizzle-orm";
import { findRegistrableDomain } from "@/lib/ai-visibility/domains";
import type { Db, Tx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { type MonitorAnswer, type MonitorRun, monitorAnswers, monitorRuns, monitors } from "@/lib/db/schema";
import { emitWebhookEvent } from "@/lib/webhooks/outbox";
import { addNotice } from "./notify";
import { type AnswerFacts, countAnswers, rateSet } from "./rates";

/**
 * Closes a run once none of its answers is pending or running and the sentiment judge has labelled every answer
 * that mentions the brand (lib/monitors/judge.ts): completed when at least one answer succeeded, failed otherwise
 * (every answer then was refunded). The guarded UPDATE moves the run once, whoever finishes its last answer or
 * judgement; the events and notices are written in the same transaction, so its webhooks carry judged answers.
 */
export async function finishRunIfDone(db: Db, runId: string): Promise<MonitorRun | null> {
  const { run } = await settleRun(db, runId);
  return run;
}

/**
 * finishRunIfDone, telling why a run stays open: `open` while answers are pending or running, `judge` when they
 * are all in and some await the sentiment judge (the caller may take the judgement up).
 */
export async function settleRun(
  db: Db,
  runId: string,
): Promise<{ state: "open" | "judge" | "closed"; run: MonitorRun | null }> {
  // Most answers are not their run's last: one cheap read spares them the transaction.
  const [state] = rowsOf<{ open: boolean; judge: boolean }>(
    await db.execute(sql`select
      exists (select 1 from monitor_answers where run_id = ${runId} and status in ('pending', 'running')) as open,
      exists (select 1 from monitor_answers where run_id = ${runId} and judge_input is not null) as judge`),
  );
  if (state?.open) return { state: "open", run: null };
  if (state?.judge) return { state: "judge", run: null };
  const run = await db.transaction(async (tx) => {
    const moved = rowsOf<{ id: string }>(
      await tx.execute(sql`
        update monitor_runs set completed_at = now(), judge_lease_owner = null, judge_lease_expires_at = null,
          status = case when exists (select 1 from monitor_answers where run_id = ${runId} and status = 'succeeded')
            then 'completed' else 'failed' end
        where id = ${runId} and status = 'running'
          and not exists (select 1 from monitor_answers where run_id = ${runId}
            and (status in ('pending', 'running') or judge_input is not null))
        returning id`),
    );
    if (moved.length === 0) return null;
    const [run] = await tx.select().from(monitorRuns).where(eq(monitorRuns.id, runId));
    await emitRunEvents(tx, run!);
    return run!;
  });
  return { state: "closed", run };
}

const facts = (a: MonitorAnswer): AnswerFacts => ({
  mentioned: a.mentioned ?? false,
  position: a.position,
  ownCited: a.ownCited ?? false,
  sentiment: a.sentiment,
  competitors: a.competitors ?? [],
});

/** Own-domain URLs cited per (engine, prompt), over a run's succeeded samples. */
function citedUrlsByCell(answers: MonitorAnswer[], domain: string): Map<string, Set<string>> {
  const cells = new Map<string, Set<string>>();
  for (const a of answers) {
    if (a.status !== "succeeded") continue;
    const key = `${a.engine}\u0000${a.prompt}`;
    const set = cells.get(key) ?? new Set<string>();
    for (const url of a.cited ?? []) if (findRegistrableDomain(url) === domain) set.add(url);
    cells.set(key, set);
  }
  return cells;
}

async function emitRunEvents(tx: Tx, run: MonitorRun): Promise<void> {
  const [monitor] = await tx.select().from(monitors).where(eq(monitors.id, run.monitorId));
  if (!monitor) return;
  const label = monitor.name ?? monitor.domain;
  const answers = await tx.select().from(monitorAnswers).where(eq(monitorAnswers.runId, run.id));
  const ok = answers.filter((a) => a.status === "succeeded");
  const failed = answers.length - ok.length;
  const current = countAnswers(ok.map(facts));
  const rates = rateSet(current);
  await emitWebhookEvent(tx, run.accountId, "monitor.run_completed", {
    monitorId: run.monitorId,
    runId: run.id,
    domain: monitor.domain,
    status: run.status,
    answers: answers.length,
    failedAnswers: failed,
    creditsCharged: run.creditsCharged,
    creditsRefunded: run.creditsRefunded,
    mentionRate: rates.mentionRate,
    citationRate: rates.citationRate,
    shareOfVoice: rates.shareOfVoice,
  });
  if (run.status === "failed") {
    await addNotice(
      tx,
      run.accountId,
      "monitor.run_failed",
      `No engine could answer the monitor "${label}" in its latest run; its ${run.creditsRefunded} credits were refunded.`,
    );
    return;
  }
  // The previous finished run with answers is the baseline of the alerts.
  const [previous] = await tx
    .select()
    .from(monitorRuns)
    .where(
      and(
        eq(monitorRuns.monitorId, run.monitorId),
        eq(monitorRuns.status, "completed"),
        lt(monitorRuns.createdAt, run.createdAt),
      ),
    )
    .orderBy(desc(monitorRuns.createdAt))
    .limit(1);
  if (!previous) return;
  const before = (await tx.select().from(monitorAnswers).where(eq(monitorAnswers.runId, previous.id))).filter(
    (a) => a.status === "succeeded",
  );
  const compared = rateSet(current, countAnswers(before.map(facts)));
  for (const metric of ["mentionRate", "citationRate", "shareOfVoice"] as const) {
    const change = compared.change![metric];
    if (!change.significant) continue;
    await emitWebhookEvent(tx, run.accountId, "visibility.changed", {
      monitorId: run.monitorId,
      domain: monitor.domain,
      metric,
      delta: change.delta,
      previous: { runId: previous.id, ...compared.previous![metric] },
      current: { runId: run.id, ...compared[metric] },
      method: "two-sided two-proportion z-test at 95%; intervals are 95% Wilson score intervals",
    });
    const word = {
      mentionRate: "mention rate",
      citationRate: "citation rate",
      shareOfVoice: "share of voice",
    }[metric];
    const pct = (x: number | null) => (x === null ? "–" : `${Math.round(x * 100)}%`);
    await addNotice(
      tx,
      run.accountId,
      "visibility.changed",
      `The ${word} of "${label}" changed significantly: ${pct(compared.previous![metric].value)} → ${pct(compared[metric].value)} (n = ${compared[metric].n}).`,
    );
  }
  const domain = findRegistrableDomain(monitor.domain) ?? monitor.domain;
  const now = citedUrlsByCell(answers, domain);
  const then = citedUrlsByCell(before, domain);
  for (const [key, urls] of now) {
    const old = then.get(key);
    // A prompt × engine the previous run has no answer for is no baseline.
    if (!old) continue;
    const [engine, prompt] = key.split("\u0000") as [string, string];
    for (const url of urls)
      if (!old.has(url)) await citationEvent(tx, run, label, "citation.gained", engine, prompt, url, ok);
    for (const url of old)
      if (!urls.has(url)) await citationEvent(tx, run, label, "citation.lost", engine, prompt, url, ok);
  }
}

async function citationEvent(
  tx: Tx,
  run: MonitorRun,
  label: string,
  type: "citation.gained" | "citation.lost",
  engine: string,
  prompt: string,
  url: string,
  answers: MonitorAnswer[],
) {
  const samples = answers.filter((a) => a.engine === engine && a.prompt === prompt);
  const citedIn = samples.filter((a) => (a.cited ?? []).includes(url)).length;
  await emitWebhookEvent(tx, run.accountId, type, {
    monitorId: run.monitorId,
    runId: run.id,
    engine,
    prompt,
    url,
    citedInSamples: citedIn,
    samples: samples.length,
  });
  await addNotice(
    tx,
    run.accountId,
    type,
    type === "citation.gained"
      ? `${engine} now cites ${url} for "${prompt}" (monitor "${label}").`
      : `${engine} no longer cites ${url} for "${prompt}" (monitor "${label}").`,
  );
}
