import { afterAll, expect } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { createMonitor, runMonitorNow } from "@/lib/monitors";
import { AnswerWorker } from "@/lib/monitors/execute";
import { createTestAccount } from "@/test/accounts";
import type { ScriptedAnswer } from "@/test/fakes/ai/server";
import { type MonitorEngines, startMonitorEngines } from "@/test/fakes/monitor-engines";
import { dbTest as test } from "@/test/support/fixtures";
import { FAST } from "./helpers";

let handle: DbHandle;
let fakes: MonitorEngines;
/** Each Claude request as it arrived: its turn (1 the first, 2 a continuation) and when. */
const arrivals: { turn: number; at: number }[] = [];

test.beforeAll(async ({ handle: fileDb }) => {
  // Claude pauses every answer's first turn (`pause_turn`), so each answer is two requests.
  fakes = await startMonitorEngines({
    answer: ({ raw }): ScriptedAnswer => {
      const turn = (JSON.parse(raw) as { messages: unknown[] }).messages.length;
      arrivals.push({ turn, at: Date.now() });
      return turn === 1
        ? { text: "Searching.", stopReason: "pause_turn" }
        : { text: "Acme Roasters is a roaster in Lyon.", sources: [] };
    },
  });
  handle = fileDb;
});

afterAll(async () => {
  await fakes?.close();
});

test("a continued turn is one more request: it waits for a slot of its own on the provider's clock", async () => {
  const db = handle.db;
  const acct = await createTestAccount(db, { credits: 1_000, domains: ["acme.com"] });
  const m = await createMonitor(
    db,
    acct.accountId,
    {
      domain: "acme.com",
      prompts: ["paced turns"],
      samples: 2,
      engines: ["Claude"],
      brandNames: ["Acme Roasters"],
      schedule: { every: "day", hour: 9, timeZone: "Europe/Paris" },
    },
    fakes.env,
  );
  await runMonitorNow(db, acct.accountId, m.id);
  // 30 a minute: slots 2,040 ms apart. Both answers are claimed at once (slots s and s + 2.04 s); each one's
  // continuation asks for a slot when its first turn is back, so gets s + 4.08 s and s + 6.12 s. Sent at once
  // instead, the first answer's continuation would arrive before the second answer's first turn.
  const env = {
    ...fakes.env,
    ANTHROPIC_RPM: "30",
    ANTHROPIC_CONCURRENCY: "4",
    MONITOR_PROVIDER_SHARE: "100",
  };
  const w = new AnswerWorker(db, { owner: "w_turns", env, fetch: fakes.fetch }, FAST);
  await w.fill();
  await w.drain({ untilMs: Date.now() + 30_000 });
  await w.stop();
  expect(w.stats.succeeded).toBe(2);
  expect(arrivals.map((a) => a.turn)).toEqual([1, 1, 2, 2]);
});
