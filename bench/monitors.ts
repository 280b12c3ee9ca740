// npm run bench:monitors: AI visibility monitors at scale on Postgres. BENCH_MONITORS monitors (200) × 5 prompts ×
// 4 engines × 3 samples (12,000 answers), all due at once, against local fake engines (in a thread of their own)
// answering in BENCH_MONITORS_DELAY_MS (200 ms) and refusing past BENCH_MONITORS_RPM requests a minute each (3,000;
// 429 with Retry-After). BENCH_MONITORS_PROCESSES runners (2), each with its own connection pool, share the work
// through the database as separate processes would. Prints the answers per minute against the limits' maximum, the
// provider limits exceeded (429s), runs charged twice, ledger mismatches, the scheduler's own CPU per run, RSS,
// and the sentiment judge's requests per provider (a run's mentioned answers are judged together).
import { Worker } from "node:worker_threads";
import { sql } from "drizzle-orm";
import { registerDomain } from "@/lib/accounts/domains";
import { findLedgerMismatches } from "@/lib/credits/credits";
import { openDatabase } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { createMonitor } from "@/lib/monitors";
import { AnswerWorker } from "@/lib/monitors/execute";
import { claimDueMonitors } from "@/lib/monitors/schedule-kind";
import { ENGINE_NAMES, type EngineName } from "@/lib/providers/engine-types";
import { readProviderLimits } from "@/lib/scheduler/provider-limits";
import { createRoutedFetch } from "@/test/fakes/ai/engines";
import type { EngineCounters } from "@/test/fakes/monitor-engines";
import { benchDatabase } from "./lib";
import type { EnginesThreadData } from "./monitor-engines-thread";

/** The fake engines in their own thread (bench/monitor-engines-thread.ts): their env, fetch, counters and close. */
async function startEnginesThread(data: EnginesThreadData) {
  const thread = new Worker(new URL("./monitor-engines-thread.ts", import.meta.url), { workerData: data });
  const next = (type: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const onMessage = (m: Record<string, unknown>) => {
        if (m.type !== type) return;
        thread.off("message", onMessage);
        resolve(m);
      };
      thread.on("message", onMessage);
      thread.once("error", reject);
    });
  const ready = await next("ready");
  return {
    env: ready.env as Record<string, string>,
    fetch: createRoutedFetch(ready.routes as Record<string, string>),
    async counters() {
      const reply = next("counters");
      thread.postMessage("counters");
      return (await reply).counters as Record<EngineName, EngineCounters>;
    },
    async close() {
      const closed = next("closed");
      thread.postMessage("close");
      await closed;
      await thread.terminate();
    },
  };
}

const MONITORS = Number(process.env.BENCH_MONITORS ?? 200);
const DELAY_MS = Number(process.env.BENCH_MONITORS_DELAY_MS ?? 200);
const RPM = Number(process.env.BENCH_MONITORS_RPM ?? 3000);
const PROCESSES = Number(process.env.BENCH_MONITORS_PROCESSES ?? 2);
const PROMPTS = 5;
const SAMPLES = 3;
const ANSWERS = MONITORS * PROMPTS * ENGINE_NAMES.length * SAMPLES;

const fakes = await startEnginesThread({
  answer: {
    brand: "Acme Roasters",
    domain: "acme.com",
    competitor: "beanco.com",
    mentionRate: 0.4,
    citeRate: 0.3,
  },
  options: { delayMs: DELAY_MS, rpm: RPM, seed: 35 },
});
// The service is told the providers' real limit; the bench has no one-off tool traffic, so monitors may take all
// of it (in production MONITOR_PROVIDER_SHARE keeps a part for the one-off tools).
const inFlightNeeded = Math.ceil((RPM / 60) * (DELAY_MS / 1000) * 2) + 4;
const env: Record<string, string | undefined> = {
  ...fakes.env,
  OPENAI_RPM: String(RPM),
  ANTHROPIC_RPM: String(RPM),
  GEMINI_RPM: String(RPM),
  PERPLEXITY_RPM: String(RPM),
  OPENAI_CONCURRENCY: String(inFlightNeeded),
  ANTHROPIC_CONCURRENCY: String(inFlightNeeded),
  GEMINI_CONCURRENCY: String(inFlightNeeded),
  PERPLEXITY_CONCURRENCY: String(inFlightNeeded),
  MONITOR_PROVIDER_SHARE: "100",
  MONITOR_CONCURRENCY: String(Math.ceil((inFlightNeeded * ENGINE_NAMES.length) / PROCESSES) + 8),
};
const limits = readProviderLimits(env);
const maxPerMinute = ENGINE_NAMES.reduce((sum, e) => sum + limits[e].rpm, 0);

const bench = await benchDatabase(ANSWERS * 5 + 1_000);
const db = bench.handle.db;
const handles = [
  bench.handle,
  ...(await Promise.all(Array.from({ length: PROCESSES - 1 }, () => openDatabase({ url: bench.url })))),
];
try {
  await registerDomain(db, bench.accountId, "acme.com");
  for (let i = 0; i < MONITORS; i++) {
    await createMonitor(
      db,
      bench.accountId,
      {
        domain: "acme.com",
        prompts: Array.from({ length: PROMPTS }, (_, p) => `monitor ${i} prompt ${p}: best coffee roaster`),
        competitors: ["beanco.com"],
        brandNames: ["Acme Roasters"],
        samples: SAMPLES,
        schedule: { every: "day", hour: 9, timeZone: "Europe/Paris" },
      },
      env,
    );
  }
  await db.execute(sql`update monitors set next_run_at = now() - interval '1 second'`);
  console.log(
    `${MONITORS} monitors due, ${ANSWERS} answers; ${PROCESSES} runners; fake engines ${DELAY_MS} ms, ${RPM}/min each`,
  );

  // The scheduler: every runner claims at once; its CPU is measured apart from the answering.
  const cpu0 = process.cpuUsage();
  const claimStart = performance.now();
  let claimed = 0;
  for (;;) {
    const n = (await Promise.all(handles.map((h) => claimDueMonitors(h.db)))).reduce((a, b) => a + b, 0);
    claimed += n;
    if (n === 0) break;
  }
  const claimMs = performance.now() - claimStart;
  const cpu = process.cpuUsage(cpu0);
  const cpuPerRunMs = (cpu.user + cpu.system) / 1000 / Math.max(1, claimed);

  const fetch = fakes.fetch;
  const workers = handles.map((h, i) => new AnswerWorker(h.db, { owner: `bench_${i}`, env, fetch }));
  const started = performance.now();
  const answerCpu0 = process.cpuUsage();
  await Promise.all(workers.map((w) => w.fill()));
  await Promise.all(workers.map((w) => w.drain({ untilMs: Date.now() + 3_600_000 })));
  const wallMs = performance.now() - started;
  const answerCpu = process.cpuUsage(answerCpu0);
  const answerCpuMs = (answerCpu.user + answerCpu.system) / 1000;
  await Promise.all(workers.map((w) => w.stop()));

  const [counts] = rowsOf<{ succeeded: number; failed: number; pending: number }>(
    await db.execute(sql`select count(*) filter (where status = 'succeeded')::int as succeeded,
      count(*) filter (where status = 'failed')::int as failed,
      count(*) filter (where status in ('pending', 'running'))::int as pending from monitor_answers`),
  );
  const [twice] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from (
      select monitor_id, scheduled_for from monitor_runs group by 1, 2 having count(*) > 1
      union all
      select monitor_run_id, null from credit_ledger where type = 'spend' and monitor_run_id is not null
        group by 1 having count(*) > 1) x`),
  );
  const mismatches = await findLedgerMismatches(db);
  const timing = rowsOf<{ engine: string; ask_ms: number; wait_ms: number }>(
    await db.execute(sql`select engine,
      avg(extract(epoch from (completed_at - slot_at)) * 1000)::int as ask_ms,
      avg(extract(epoch from (slot_at - created_at)) * 1000)::int as wait_ms
      from monitor_answers where status = 'succeeded' group by engine order by engine`),
  );
  const perMinute = ((counts!.succeeded + counts!.failed) / wallMs) * 60_000;
  const counters = await fakes.counters();
  const exceeded = ENGINE_NAMES.reduce(
    (sum, e) => sum + counters[e].rateLimited + counters[e].judgeRateLimited,
    0,
  );
  const judged = ENGINE_NAMES.reduce((sum, e) => sum + counters[e].judged, 0);
  const judgedItems = ENGINE_NAMES.reduce((sum, e) => sum + counters[e].judgedItems, 0);
  const judgeLimited = ENGINE_NAMES.reduce((sum, e) => sum + counters[e].judgeRateLimited, 0);
  const missedSlots = workers.reduce((sum, w) => sum + w.stats.missedSlots + w.stats.judge.missedSlots, 0);
  const [methods] = rowsOf<{ model: number; lexicon: number; waiting: number }>(
    await db.execute(sql`select count(*) filter (where sentiment_method like 'model:%')::int as model,
      count(*) filter (where sentiment_method = 'lexicon')::int as lexicon,
      count(*) filter (where judge_input is not null)::int as waiting from monitor_answers`),
  );
  const requestsPerMinute = ((counts!.succeeded + counts!.failed + judged) / wallMs) * 60_000;
  console.log(`runs created        ${claimed} in ${(claimMs / 1000).toFixed(1)} s`);
  console.log(`scheduler CPU       ${cpuPerRunMs.toFixed(2)} ms per run`);
  console.log(
    `answers             ${counts!.succeeded} succeeded, ${counts!.failed} failed, ${counts!.pending} left`,
  );
  console.log(
    `answers per minute  ${Math.round(perMinute)} of the limits' ${maxPerMinute} (${((perMinute / maxPerMinute) * 100).toFixed(1)}%), wall ${(wallMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `requests per minute ${Math.round(requestsPerMinute)} of the limits' ${maxPerMinute} (${((requestsPerMinute / maxPerMinute) * 100).toFixed(1)}%): answers and ${judged} sentiment judgements (structured output on the judge's provider, paced by the same shared limits)`,
  );
  console.log(
    `limits exceeded     ${exceeded} (429s: ${exceeded - judgeLimited} answers, ${judgeLimited} judgements); busiest minute per engine: ${ENGINE_NAMES.map((e) => `${e} ${counters[e].maxPerMinute}`).join(", ")}`,
  );
  console.log(
    `judge requests      ${judged} for ${judgedItems} mentioned answers: ${ENGINE_NAMES.map((e) => `${e} ${counters[e].judged}`).join(", ")}; sentiment by model ${methods!.model}, by lexicon ${methods!.lexicon}, awaiting ${methods!.waiting}`,
  );
  console.log(
    `slots missed        ${missedSlots} (requests not started within 0.8 s of their slot, re-queued)`,
  );
  console.log(
    `answer time         ${timing.map((t) => `${t.engine} ${t.ask_ms} ms`).join(", ")} (slot to stored)`,
  );
  console.log(
    `process CPU         ${(answerCpuMs / 1000).toFixed(1)} s over ${(wallMs / 1000).toFixed(1)} s of answering (${((answerCpuMs / ANSWERS) * 1).toFixed(2)} ms per answer; the runners and the fakes' thread)`,
  );
  console.log(`runs charged twice  ${twice!.n}`);
  console.log(`ledger mismatches   ${mismatches.length}`);
  console.log(`RSS                 ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`);
} finally {
  await Promise.all(handles.slice(1).map((h) => h.close()));
  await bench.drop();
  await fakes.close();
}
