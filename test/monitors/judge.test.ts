import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect } from "vitest";
import { readBatchLabels } from "@/lib/ai-visibility/sentiment-judge";
import type { DbHandle } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { monitorAnswers, monitorRuns, webhookEndpoints } from "@/lib/db/schema";
import { createMonitor, runMonitorNow } from "@/lib/monitors";
import { chunkJudgeItems, JUDGE_BATCH_ANSWERS, pickJudgeLane } from "@/lib/monitors/judge";
import { localSlot, MAX_START_LATENESS_MS, waitForSlot } from "@/lib/monitors/pacing";
import type { EngineName } from "@/lib/providers/engine-types";
import { readProviderLimits } from "@/lib/scheduler/provider-limits";
import { createTestAccount, type TestAccount } from "@/test/accounts";
import type { ScriptedAnswer } from "@/test/fakes/ai/server";
import { type JudgeItem, type MonitorEngines, startMonitorEngines } from "@/test/fakes/monitor-engines";
import { dbTest as test } from "@/test/support/fixtures";
import { answerAll, FAST_LIMITS, ledgerMismatches, worker } from "./helpers";

let handle: DbHandle;
let fakes: MonitorEngines;
let acct: TestAccount;

const schedule = { every: "day" as const, hour: 9, timeZone: "Europe/Paris" };

/** What each prompt makes the engines say of the brand: praise, a warning, or a plain fact. */
const SENTENCE = {
  good: "Acme Roasters is an excellent choice and highly recommended.",
  bad: "Acme Roasters is overpriced and disappointing, so avoid it.",
  plain: "Acme Roasters is a roaster located in Lyon.",
} as const;
type Tone = keyof typeof SENTENCE;
const TONES = Object.keys(SENTENCE) as Tone[];
const toneOfPrompt = (prompt: string) => TONES.find((t) => prompt.startsWith(`${t} `))!;

/** A model's labels, told apart from the lexicon's by "mixed" for the plain fact (counted as neutral). */
function modelLabel(item: JudgeItem) {
  const text = item.sentences.join(" ");
  if (text.includes("excellent")) return "positive";
  if (text.includes("avoid")) return "negative";
  return "mixed";
}
const EXPECTED_SENTIMENT: Record<Tone, string> = { good: "positive", bad: "negative", plain: "neutral" };

test.beforeAll(async ({ handle: fileDb }) => {
  fakes = await startMonitorEngines({
    answer: ({ raw }): ScriptedAnswer => {
      const tone = TONES.find((t) => raw.includes(`${t} coffee`)) ?? "plain";
      return { text: `Several roasters stand out. ${SENTENCE[tone]} Prices vary.`, sources: [] };
    },
  });
  handle = fileDb;
  acct = await createTestAccount(handle.db, { credits: 100_000, domains: ["acme.com"] });
  // Subscribed, so the run's events are written and can be counted.
  await handle.db.insert(webhookEndpoints).values({
    accountId: acct.accountId,
    url: "https://hooks.example.com/judge",
    secret: "whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0dGVzdA==",
    events: ["monitor.run_completed"],
  } as never);
});

afterAll(async () => {
  await fakes?.close();
});

async function startRun(prompts: string[], samples: number, engines: EngineName[] = ["ChatGPT", "Gemini"]) {
  const m = await createMonitor(
    handle.db,
    acct.accountId,
    { domain: "acme.com", prompts, samples, engines, brandNames: ["Acme Roasters"], schedule },
    fakes.env,
  );
  return runMonitorNow(handle.db, acct.accountId, m.id);
}

const answersOf = (runId: string) =>
  handle.db.select().from(monitorAnswers).where(eq(monitorAnswers.runId, runId));
const runOf = async (runId: string) =>
  (await handle.db.select().from(monitorRuns).where(eq(monitorRuns.id, runId)))[0]!;
const judgeRequests = () => Object.values(fakes.counters).reduce((n, c) => n + c.judged, 0);
async function completedEvents(runId: string) {
  const [row] = rowsOf<{ n: number }>(
    await handle.db.execute(sql`select count(*)::int as n from webhook_events
      where type = 'monitor.run_completed' and payload->'data'->>'runId' = ${runId}`),
  );
  return Number(row?.n ?? 0);
}

describe("the batch judge", () => {
  test("labels come back by item number and land on the right answers, whatever their order", async () => {
    // The model's verdicts in reverse order: a reply read by position would swap them.
    fakes.setJudge((items) => ({
      json: { verdicts: items.map((item, i) => ({ id: i + 1, sentiment: modelLabel(item) })).reverse() },
    }));
    try {
      const before = judgeRequests();
      const started = await startRun(["good coffee", "bad coffee", "plain coffee"], 2);
      await answerAll(handle.db, fakes.env, fakes.fetch);
      const answers = await answersOf(started.id);
      expect(answers).toHaveLength(12);
      for (const a of answers) {
        expect(a).toMatchObject({ status: "succeeded", mentioned: true, judgeInput: null });
        expect(a.sentiment).toBe(EXPECTED_SENTIMENT[toneOfPrompt(a.prompt)]);
        expect(a.sentimentMethod).toMatch(/^model:gpt-5-nano/);
      }
      // Twelve answers, one request.
      expect(judgeRequests() - before).toBe(1);
      expect(await runOf(started.id)).toMatchObject({ status: "completed" });
      expect(await completedEvents(started.id)).toBe(1);
    } finally {
      fakes.setJudge(null);
    }
  });

  test("a verdict missing or contradicted sends those answers alone to the lexicon", async () => {
    // No verdict for the plain facts, two different ones for the warnings: only the praise is the model's.
    fakes.setJudge((items) => ({
      json: {
        verdicts: items.flatMap((item, i) => {
          const label = modelLabel(item);
          if (label === "mixed") return [];
          if (label === "negative")
            return [
              { id: i + 1, sentiment: "negative" },
              { id: i + 1, sentiment: "positive" },
            ];
          return [{ id: i + 1, sentiment: label }];
        }),
      },
    }));
    try {
      const started = await startRun(["good coffee", "bad coffee", "plain coffee"], 1);
      await answerAll(handle.db, fakes.env, fakes.fetch);
      const answers = await answersOf(started.id);
      expect(answers).toHaveLength(6);
      for (const a of answers) {
        const tone = toneOfPrompt(a.prompt);
        expect(a.sentimentMethod).toEqual(
          tone === "good" ? expect.stringMatching(/^model:gpt-5-nano/) : "lexicon",
        );
        expect(a.sentiment).toBe(EXPECTED_SENTIMENT[tone]);
      }
      // The call was made and counted, with the answers it carried.
      expect((await runOf(started.id)).judgeUsage).toEqual([
        expect.objectContaining({ engine: "ChatGPT", purpose: "sentiment", answers: 6 }),
      ]);
    } finally {
      fakes.setJudge(null);
    }
  });

  test("a malformed reply, or a judge that fails twice, leaves the run to the lexicon; the run completes", async () => {
    fakes.setJudge(() => ({ json: { verdicts: "all positive" } }));
    try {
      const started = await startRun(["good coffee", "bad coffee"], 1);
      await answerAll(handle.db, fakes.env, fakes.fetch);
      const answers = await answersOf(started.id);
      expect(answers.map((a) => a.sentimentMethod)).toEqual(["lexicon", "lexicon", "lexicon", "lexicon"]);
      expect(answers.every((a) => a.sentiment !== null)).toBe(true);
    } finally {
      fakes.setJudge(null);
    }

    fakes.setJudge(() => ({ status: 500, message: "The server had an error." }));
    try {
      const before = judgeRequests();
      const started = await startRun(["good coffee", "plain coffee"], 1, ["Claude"]);
      await answerAll(handle.db, fakes.env, fakes.fetch);
      const answers = await answersOf(started.id);
      expect(answers.map((a) => a.sentimentMethod)).toEqual(["lexicon", "lexicon"]);
      expect(answers.map((a) => a.sentiment).sort()).toEqual(["neutral", "positive"]);
      // Tried once more on a new slot, then no more; a failed call records no usage.
      expect(judgeRequests() - before).toBe(2);
      const run = await runOf(started.id);
      expect(run).toMatchObject({ status: "completed", judgeUsage: [], creditsRefunded: 0 });
      expect(await completedEvents(started.id)).toBe(1);
    } finally {
      fakes.setJudge(null);
    }
  });

  test("a process lost mid-judgement: another takes the run up when the lease runs out, and the lost one writes nothing", async () => {
    // 5 prompts × 2 engines × 5 samples = 50 mentioned answers: two requests (40 and 10).
    const prompts = ["good coffee 1", "good coffee 2", "bad coffee 1", "plain coffee 1", "plain coffee 2"];
    let calls = 0;
    fakes.setJudge((items) => {
      calls++;
      // The first process's second request hangs, and would call everything negative when it comes back.
      if (calls === 2)
        return {
          json: { verdicts: items.map((_, i) => ({ id: i + 1, sentiment: "negative" })) },
          delayMs: 2_500,
        };
      return { json: { verdicts: items.map((item, i) => ({ id: i + 1, sentiment: modelLabel(item) })) } };
    });
    const lost = worker(handle.db, fakes.env, fakes.fetch, "w_lost");
    try {
      const started = await startRun(prompts, 5);
      await lost.fill();
      const lostDone = lost.drain({ untilMs: Date.now() + 30_000 });
      // Wait until its first batch is stored and its second is in flight.
      const deadline = Date.now() + 20_000;
      for (;;) {
        const waiting = (await answersOf(started.id)).filter((a) => a.judgeInput !== null).length;
        if (waiting === 50 - JUDGE_BATCH_ANSWERS && calls === 2) break;
        if (Date.now() > deadline) throw new Error(`stuck: ${waiting} awaiting, ${calls} calls`);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect((await runOf(started.id)).status).toBe("running");
      // Its lease runs out (the process is presumed gone): another worker takes the judgement up.
      await handle.db.execute(
        sql`update monitor_runs set judge_lease_expires_at = now() - interval '1 second' where id = ${started.id}`,
      );
      await answerAll(handle.db, fakes.env, fakes.fetch);
      const run = await runOf(started.id);
      expect(run).toMatchObject({ status: "completed", judgeAttempts: 2, judgeLeaseOwner: null });
      expect(calls).toBe(3);
      // The lost process's reply comes back after the takeover: refused, nothing overwritten.
      await lostDone;
      const answers = await answersOf(started.id);
      expect(answers).toHaveLength(50);
      for (const a of answers) {
        expect(a.judgeInput).toBeNull();
        expect(a.sentimentMethod).toMatch(/^model:gpt-5-nano/);
        expect(a.sentiment).toBe(EXPECTED_SENTIMENT[toneOfPrompt(a.prompt)]);
      }
      expect((await runOf(started.id)).judgeUsage.map((u) => u.answers)).toEqual([40, 10]);
      expect(await completedEvents(started.id)).toBe(1);
      expect(await ledgerMismatches(handle.db)).toEqual([]);
    } finally {
      await lost.stop();
      fakes.setJudge(null);
    }
  });

  test("a run whose judgement kept being taken up and lost is judged by the lexicon, without a model call", async () => {
    const started = await startRun(["good coffee"], 2, ["Gemini"]);
    // The answers are stored, then every worker taking the judgement up dies: simulated by its attempts used up.
    fakes.setJudge(() => ({ status: 500 }));
    const w = worker(handle.db, fakes.env, fakes.fetch, "w_dies");
    await w.fill();
    await w.stop();
    fakes.setJudge(null);
    await handle.db.execute(sql`update monitor_answers set status = 'succeeded', mentioned = true,
      judge_input = ${JSON.stringify({ brand: "Acme Roasters", sentences: [SENTENCE.good] })}::jsonb,
      sentiment = null, sentiment_method = null, lease_owner = null, lease_expires_at = null, completed_at = now()
      where run_id = ${started.id}`);
    await handle.db.execute(sql`update monitor_runs set judge_attempts = 10, judge_lease_owner = 'w_gone',
      judge_lease_expires_at = now() - interval '1 second' where id = ${started.id}`);
    const before = judgeRequests();
    await answerAll(handle.db, fakes.env, fakes.fetch);
    expect(judgeRequests() - before).toBe(0);
    const answers = await answersOf(started.id);
    expect(answers.map((a) => [a.sentiment, a.sentimentMethod])).toEqual([
      ["positive", "lexicon"],
      ["positive", "lexicon"],
    ]);
    expect((await runOf(started.id)).status).toBe("completed");
  });
});

describe("the judge's provider", () => {
  test("the cheapest, unless its queue of monitor requests would drain a second later than another's", async () => {
    await handle.db.execute(sql`delete from provider_budgets`);
    const env = { ...FAST_LIMITS, ...fakes.env };
    // Nothing queued: the cheapest configured judge model's provider.
    expect(await pickJudgeLane(handle.db, env, readProviderLimits(env))).toBe("ChatGPT");
    // Two ChatGPT answers queued at 60 a minute are two seconds of its queue: the next cheapest judges.
    await startRun(["plain coffee"], 2, ["ChatGPT"]);
    const slow = readProviderLimits({ ...env, OPENAI_RPM: "60", MONITOR_PROVIDER_SHARE: "100" });
    expect(await pickJudgeLane(handle.db, env, slow)).toBe("Gemini");
    // Gemini's queue as long too: the next cheapest within a second of the least busy, Claude.
    await startRun(["plain coffee"], 2, ["Gemini"]);
    const bothSlow = readProviderLimits({
      ...env,
      OPENAI_RPM: "60",
      GEMINI_RPM: "60",
      MONITOR_PROVIDER_SHARE: "100",
    });
    expect(await pickJudgeLane(handle.db, env, bothSlow)).toBe("Claude");
    // Only one engine configured: that one, whatever its queue.
    const { OPENAI_API_KEY: _a, ANTHROPIC_API_KEY: _b, PERPLEXITY_API_KEY: _c, ...onlyGemini } = env;
    expect(await pickJudgeLane(handle.db, onlyGemini, bothSlow)).toBe("Gemini");
    await answerAll(handle.db, fakes.env, fakes.fetch);
  });
});

describe("batch judge pieces", () => {
  test("readBatchLabels: by id, ignoring ids out of range and labels outside the schema", () => {
    expect(
      readBatchLabels(
        {
          verdicts: [
            { id: 3, sentiment: "negative" },
            { id: 1, sentiment: "mixed" },
            { id: 4, sentiment: "positive" },
            { id: 2, sentiment: "great" },
            { id: 0, sentiment: "positive" },
          ],
        },
        3,
      ),
    ).toEqual(["mixed", null, "negative"]);
    expect(
      readBatchLabels(
        {
          verdicts: [
            { id: 1, sentiment: "positive" },
            { id: 1, sentiment: "positive" },
          ],
        },
        1,
      ),
    ).toEqual(["positive"]);
    expect(readBatchLabels(null, 2)).toEqual([null, null]);
  });

  test("chunkJudgeItems: at most JUDGE_BATCH_ANSWERS answers and a bounded size per request, order kept", () => {
    const items = Array.from({ length: 95 }, (_, i) => ({ brand: "Acme", sentences: [`sentence ${i}`] }));
    const chunks = chunkJudgeItems(items);
    expect(chunks.map((c) => c.length)).toEqual([40, 40, 15]);
    expect(chunks.flat()).toEqual(items);
    const long = Array.from({ length: 3 }, () => ({ brand: "Acme", sentences: ["x".repeat(9_000)] }));
    expect(chunkJudgeItems(long).map((c) => c.length)).toEqual([1, 1, 1]);
  });

  test("a slot is never started early, and a slot missed by more than the lateness allowed is not used", async () => {
    const now = new Date();
    const clock = { now, localFrom: Date.now() - 5, localTo: Date.now() };
    const soon = localSlot(new Date(now.getTime() + 30), clock);
    expect(await waitForSlot(soon)).toBe(true);
    expect(Date.now()).toBeGreaterThanOrEqual(soon.notBefore);
    const missed = localSlot(new Date(now.getTime() - MAX_START_LATENESS_MS - 50), clock);
    expect(await waitForSlot(missed)).toBe(false);
  });
});
