import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { accountNotices, monitorAnswers, monitorRuns, webhookEndpoints } from "@/lib/db/schema";
import { createMonitor, listRuns, monitorReport, runMonitorNow } from "@/lib/monitors";
import { maintainMonitorAnswers } from "@/lib/monitors/execute";
import { balanceOf, createTestAccount, type TestAccount } from "@/test/accounts";
import { brandAnswers, type MonitorEngines, startMonitorEngines } from "@/test/fakes/monitor-engines";
import { dbTest } from "@/test/support/fixtures";
import { answerAll, FAST, ledgerMismatches, makeDue, runDue } from "./helpers";

const test = dbTest;
let handle: DbHandle;
let fakes: MonitorEngines;
let acct: TestAccount;

const schedule = { every: "day" as const, hour: 9, timeZone: "Europe/Paris" };

/** The judge's requests and the answers they carried, per engine. */
function judgeCounts() {
  return Object.fromEntries(
    (["ChatGPT", "Claude", "Gemini", "Perplexity"] as const).map((e) => [
      e,
      { requests: fakes.counters[e].judged, items: fakes.counters[e].judgedItems },
    ]),
  ) as Record<"ChatGPT" | "Claude" | "Gemini" | "Perplexity", { requests: number; items: number }>;
}

beforeAll(async () => {
  fakes = await startMonitorEngines({
    answer: brandAnswers({
      brand: "Acme Roasters",
      domain: "acme.com",
      competitor: "beanco.com",
      mentionRate: 0.6,
      citeRate: 0.5,
    }),
    seed: 35,
  });
});
test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  acct = await createTestAccount(handle.db, { credits: 10_000, domains: ["acme.com"] });
  // A webhook endpoint subscribed to the monitors' events, so the outbox rows can be read back.
  await handle.db.insert(webhookEndpoints).values({
    accountId: acct.accountId,
    url: "https://hooks.example.com/x",
    secret: "whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0dGVzdA==",
    events: [
      "monitor.run_completed",
      "monitor.run_skipped",
      "citation.gained",
      "citation.lost",
      "visibility.changed",
    ],
  } as never);
});

afterAll(async () => {
  await fakes?.close();
});

describe("a run", () => {
  test("is charged when created, asks prompt × engine × sample, and stores what each answer said", async () => {
    const db = handle.db;
    const judgedBefore = judgeCounts();
    const m = await createMonitor(
      db,
      acct.accountId,
      {
        domain: "acme.com",
        prompts: ["best coffee roaster in Lyon", "where to buy fresh coffee beans"],
        competitors: ["beanco.com"],
        brandNames: ["Acme Roasters"],
        samples: 2,
        schedule,
      },
      fakes.env,
    );
    expect(m.engines).toEqual(["ChatGPT", "Perplexity", "Claude", "Gemini"]);
    expect(m.estimate).toMatchObject({ answersPerRun: 16, creditsPerRun: 80, creditsPerMonth: 2400 });
    const before = await balanceOf(db, acct.accountId);
    const started = await runMonitorNow(db, acct.accountId, m.id);
    expect(started).toMatchObject({ status: "running", answersPlanned: 16, creditsCharged: 80 });
    expect(await balanceOf(db, acct.accountId)).toBe(before - 80);

    await answerAll(db, fakes.env, fakes.fetch);
    const { runs } = await listRuns(db, acct.accountId, m.id, { limit: 10 });
    const run = runs[0]!;
    expect(run).toMatchObject({
      id: started.id,
      status: "completed",
      creditsCharged: 80,
      creditsRefunded: 0,
    });
    expect(run.answers).toHaveLength(16);
    const mentioned = run.answers.filter((a) => a.mentioned);
    expect(mentioned.length).toBeGreaterThan(0);
    expect(mentioned.length).toBeLessThan(16);
    for (const a of mentioned) {
      expect(a.position).toBeGreaterThanOrEqual(1);
      expect(a.sentiment).toBe("positive");
      // Engines are configured, so the model judge decides (the cheapest: OpenAI's judge model), named so.
      expect(a.sentimentMethod).toMatch(/^model:gpt-5-nano/);
    }
    // The run's mentioned answers were judged together: one structured-output request to the judge's provider
    // (the cheapest, its lane idle), carrying every mentioned answer once and no other.
    const judged = judgeCounts();
    expect(judged.ChatGPT.requests - judgedBefore.ChatGPT.requests).toBe(1);
    expect(judged.ChatGPT.items - judgedBefore.ChatGPT.items).toBe(mentioned.length);
    for (const e of ["Claude", "Gemini", "Perplexity"] as const)
      expect(judged[e].requests - judgedBefore[e].requests).toBe(0);
    // Operators' usage: the judge's call is counted on the run, with the answers it judged.
    const [stored] = await db.select().from(monitorRuns).where(eq(monitorRuns.id, started.id));
    expect(stored!.judgeUsage).toEqual([
      expect.objectContaining({
        engine: "ChatGPT",
        purpose: "sentiment",
        model: expect.stringMatching(/^gpt-5-nano/),
        answers: mentioned.length,
        attempts: 1,
      }),
    ]);
    expect(stored!.judgeLeaseOwner).toBeNull();
    // Cited and retrieved are kept apart: a cited page of the domain, and at least one read but not cited.
    expect(run.answers.some((a) => a.cited.some((u) => u.startsWith("https://acme.com/")))).toBe(true);
    expect(run.answers.every((a) => a.cited.every((u) => !u.includes("vertexaisearch")))).toBe(true);
    expect(await balanceOf(db, acct.accountId)).toBe(before - 80);
    expect(await ledgerMismatches(db)).toEqual([]);

    const report = await monitorReport(db, acct.accountId, m.id, { format: "json" });
    expect(report.total.answers).toBe(16);
    expect(report.total.mentionRate.n).toBe(16);
    expect(report.total.mentionRate.value).toBeCloseTo(mentioned.length / 16, 3);
    expect(report.total.mentionRate.low!).toBeLessThanOrEqual(report.total.mentionRate.value!);
    expect(report.byEngine).toHaveLength(4);
    expect(report.byPrompt).toHaveLength(8);
    expect(report.byPrompt.every((p) => p.mentionRate.n === 2)).toBe(true);
    expect(report.competitors[0]!.domain).toBe("beanco.com");
    expect(report.citedDomains.find((d) => d.domain === "reddit.com")?.class).toBe("user_generated");
    const own = report.citedDomains.find((d) => d.domain === "acme.com");
    if (own) expect(own.class).toBe("own");
    expect(report.groundingDiff.length).toBeGreaterThanOrEqual(8);
    expect(report.methods.interval).toMatch(/Wilson/);
    const events = rowsOf<{ type: string }>(
      await db.execute(sql`select type from webhook_events where account_id = ${acct.accountId}`),
    );
    expect(events.map((e) => e.type)).toContain("monitor.run_completed");
  });

  test("one engine down: its answers fail and only they are refunded, once each", async () => {
    const db = handle.db;
    const m = await createMonitor(
      db,
      acct.accountId,
      {
        domain: "acme.com",
        prompts: ["coffee subscription uk"],
        samples: 3,
        schedule,
        brandNames: ["Acme Roasters"],
      },
      fakes.env,
    );
    fakes.down.add("Claude");
    try {
      const before = await balanceOf(db, acct.accountId);
      const started = await runMonitorNow(db, acct.accountId, m.id);
      expect(started.creditsCharged).toBe(60);
      await answerAll(db, fakes.env, fakes.fetch);
      const [run] = await db.select().from(monitorRuns).where(eq(monitorRuns.id, started.id));
      expect(run).toMatchObject({ status: "completed", creditsCharged: 60, creditsRefunded: 15 });
      const answers = await db.select().from(monitorAnswers).where(eq(monitorAnswers.runId, started.id));
      const failed = answers.filter((a) => a.status === "failed");
      expect(failed.map((a) => a.engine)).toEqual(["Claude", "Claude", "Claude"]);
      expect(failed.every((a) => a.error?.code === "ENGINE_UNAVAILABLE")).toBe(true);
      expect(answers.filter((a) => a.status === "succeeded")).toHaveLength(9);
      expect(await balanceOf(db, acct.accountId)).toBe(before - 60 + 15);
      const refunds = rowsOf<{ n: number }>(
        await db.execute(
          sql`select count(*)::int as n from credit_ledger where monitor_run_id = ${started.id} and type = 'refund'`,
        ),
      );
      expect(refunds[0]!.n).toBe(3);
      expect(await ledgerMismatches(db)).toEqual([]);
    } finally {
      fakes.down.delete("Claude");
    }
  });

  test("every engine down: the run fails and is refunded in full", async () => {
    const db = handle.db;
    const m = await createMonitor(
      db,
      acct.accountId,
      { domain: "acme.com", prompts: ["decaf beans"], samples: 1, engines: ["ChatGPT", "Gemini"], schedule },
      fakes.env,
    );
    fakes.down.add("ChatGPT");
    fakes.down.add("Gemini");
    try {
      const before = await balanceOf(db, acct.accountId);
      const started = await runMonitorNow(db, acct.accountId, m.id);
      await answerAll(db, fakes.env, fakes.fetch);
      const [run] = await db.select().from(monitorRuns).where(eq(monitorRuns.id, started.id));
      expect(run).toMatchObject({ status: "failed", creditsCharged: 10, creditsRefunded: 10 });
      expect(await balanceOf(db, acct.accountId)).toBe(before);
      const notices = await db
        .select()
        .from(accountNotices)
        .where(eq(accountNotices.accountId, acct.accountId));
      expect(notices.some((n) => n.kind === "monitor.run_failed")).toBe(true);
    } finally {
      fakes.down.clear();
    }
  });

  test("scheduled runs: a due monitor runs once and moves to its next slot", async () => {
    const db = handle.db;
    const m = await createMonitor(
      db,
      acct.accountId,
      { domain: "acme.com", prompts: ["espresso beans"], samples: 1, engines: ["ChatGPT"], schedule },
      fakes.env,
    );
    await makeDue(db, m.id);
    expect(await runDue(db, fakes.env, fakes.fetch)).toBe(1);
    expect(await runDue(db, fakes.env, fakes.fetch)).toBe(0);
    const runs = await db.select().from(monitorRuns).where(eq(monitorRuns.monitorId, m.id));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: "schedule", status: "completed" });
  });
});

describe("housekeeping", () => {
  test("answers of an engine no longer configured are failed and refunded; the run closes", async () => {
    const db = handle.db;
    const m = await createMonitor(
      db,
      acct.accountId,
      {
        domain: "acme.com",
        prompts: ["cold brew kit"],
        samples: 2,
        engines: ["ChatGPT", "Claude"],
        schedule,
      },
      fakes.env,
    );
    const before = await balanceOf(db, acct.accountId);
    const started = await runMonitorNow(db, acct.accountId, m.id);
    const { ANTHROPIC_API_KEY: _removed, ...withoutClaude } = fakes.env;
    await answerAll(db, withoutClaude, fakes.fetch);
    await maintainMonitorAnswers(db, FAST, { ...withoutClaude });
    // Its answers all in, the run closes once a worker's pass has judged the tone of those mentioning the brand.
    await answerAll(db, withoutClaude, fakes.fetch);
    const [run] = await db.select().from(monitorRuns).where(eq(monitorRuns.id, started.id));
    expect(run).toMatchObject({ status: "completed", creditsCharged: 20, creditsRefunded: 10 });
    const failed = await db.select().from(monitorAnswers).where(eq(monitorAnswers.runId, started.id));
    expect(failed.filter((a) => a.status === "failed").map((a) => a.error?.code)).toEqual([
      "ENGINE_NOT_CONFIGURED",
      "ENGINE_NOT_CONFIGURED",
    ]);
    expect(await balanceOf(db, acct.accountId)).toBe(before - 10);
    expect(await ledgerMismatches(db)).toEqual([]);
  });
});
