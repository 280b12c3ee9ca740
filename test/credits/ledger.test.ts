// The money module (lib/credits/ledger.ts) on a real database: charges race without overdrawing, a refund is
// given once and never exceeds its charge, and credits.low is written once per crossing of the threshold.
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { chargeWithinCap } from "@/lib/credits/capped-charge";
import { findLedgerMismatches } from "@/lib/credits/credits";
import { addCredits, balanceOf, charge, refund } from "@/lib/credits/ledger";
import type { DbHandle } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { creditLedger, monitors, webhookDeliveries, webhookEndpoints, webhookEvents } from "@/lib/db/schema";
import { dbTest as test } from "@/test/support/fixtures";
import { createTestAccount } from "../accounts";

let handle: DbHandle;
test.beforeAll(async ({ handle: fileDb }) => {
  handle = fileDb;
});

/** A monitor of the account, for runs to be charged against. */
async function monitorOf(accountId: string) {
  const [m] = await handle.db
    .insert(monitors)
    .values({
      accountId,
      domain: "money.example",
      prompts: ["best tools"],
      engines: ["ChatGPT"],
      every: "day",
      hour: 6,
      timeZone: "UTC",
      status: "paused",
      pauseReason: "paused_by_user",
    })
    .returning();
  return m!.id;
}

/** A monitor run charged through the module, as the monitors' service charges one. */
async function runCharge(accountId: string, cost: number, runId = randomUUID()) {
  const monitorId = await monitorOf(accountId);
  return charge(handle.db, {
    accountId,
    cost,
    description: `Monitor run ${runId}`,
    ref: { monitorRunId: runId },
    low: { runId },
    work: sql`run as (
      insert into monitor_runs (id, monitor_id, account_id, trigger, status, config, answers_planned, credits_charged)
      select ${runId}, ${monitorId}, ${accountId}, 'manual', 'running', '{}'::jsonb, 1, ${cost}::int from charged
      returning id)`,
    from: sql`run`,
  });
}

let samples = 0;
/** A pending answer of a run. */
async function answerOf(runId: string) {
  const [row] = rowsOf<{ id: string }>(
    await handle.db.execute(sql`
      insert into monitor_answers (run_id, monitor_id, account_id, engine, prompt_index, prompt, sample)
      select id, monitor_id, account_id, 'ChatGPT', 0, 'best tools', ${++samples} from monitor_runs where id = ${runId}
      returning id`),
  );
  return row!.id;
}

/** A job charged through the module, as the job service charges one. */
async function chargedJob(accountId: string, cost: number) {
  const jobId = randomUUID();
  const row = await charge(handle.db, {
    accountId,
    cost,
    description: `test job ${jobId}`,
    ref: { jobId },
    low: { jobId },
    work: sql`job as (
      insert into jobs (id, account_id, tool, input, credits_charged)
      select ${jobId}, ${accountId}, 'audits', '{}'::jsonb, ${cost}::int from charged returning id)`,
    from: sql`job`,
  });
  expect(row).not.toBeNull();
  return jobId;
}

describe("charge", () => {
  test("concurrent charges never take the balance below zero", async () => {
    const a = await createTestAccount(handle.db, { credits: 100 });
    const results = await Promise.all(Array.from({ length: 25 }, () => runCharge(a.accountId, 9)));
    const taken = results.filter((r) => r !== null);
    expect(taken).toHaveLength(11);
    expect(await balanceOf(handle.db, a.accountId)).toBe(1);
    expect(taken.map((r) => r!.balance).sort((x, y) => y - x)).toEqual(
      Array.from({ length: 11 }, (_, i) => 91 - 9 * i),
    );
    const spends = await handle.db.select().from(creditLedger).where(eq(creditLedger.accountId, a.accountId));
    expect(spends.filter((l) => l.type === "spend")).toHaveLength(11);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });

  test("a refused charge writes nothing, not even its work", async () => {
    const a = await createTestAccount(handle.db, { credits: 5 });
    const jobId = randomUUID();
    const row = await charge(handle.db, {
      accountId: a.accountId,
      cost: 6,
      description: "too dear",
      ref: { jobId },
      low: {},
      work: sql`job as (
        insert into jobs (id, account_id, tool, input, credits_charged)
        select ${jobId}, ${a.accountId}, 'audits', '{}'::jsonb, 6 from charged returning id)`,
    });
    expect(row).toBeNull();
    expect(await balanceOf(handle.db, a.accountId)).toBe(5);
    const jobs = rowsOf(await handle.db.execute(sql`select id from jobs where id = ${jobId}`));
    expect(jobs).toEqual([]);
  });

  test("a capped charge is refused with its reason: the balance first, then the cap", async () => {
    const a = await createTestAccount(handle.db, { credits: 30 });
    const monitorId = await monitorOf(a.accountId);
    const capped = (cost: number, cap: number | null) => {
      const runId = randomUUID();
      return handle.db.transaction((tx) =>
        chargeWithinCap(tx, {
          accountId: a.accountId,
          cost,
          description: "capped run",
          ref: { monitorRunId: runId },
          low: {},
          cap,
          spent: sql`select 25::int`,
          work: sql`run as (
            insert into monitor_runs (id, monitor_id, account_id, trigger, status, config, answers_planned,
              credits_charged)
            select ${runId}, ${monitorId}, ${a.accountId}, 'manual', 'running', '{}'::jsonb, 1, ${cost}::int
            from charged returning id)`,
        }),
      );
    };
    expect(await capped(10, 30)).toEqual({
      charged: null,
      reason: "monthly_cap",
      detail: { required: 10, available: 30, monthlyCreditCap: 30, spentThisMonth: 25 },
    });
    expect(await capped(31, null)).toEqual({
      charged: null,
      reason: "insufficient_credits",
      detail: { required: 31, available: 30 },
    });
    const ok = await capped(5, 30);
    expect(ok.charged).toMatchObject({ balance: 25 });
    expect(await balanceOf(handle.db, a.accountId)).toBe(25);
  });
});

describe("refund", () => {
  test("a job's refund is given once however many ask, never more than its charge", async () => {
    const a = await createTestAccount(handle.db, { credits: 100 });
    const jobId = await chargedJob(a.accountId, 30);
    const ask = (amount: number) =>
      refund(handle.db, { accountId: a.accountId, amount, description: "refund", ref: { jobId } });
    expect(await ask(31)).toBeNull();
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => ask(30)));
    // Concurrent refunds of one job: one is written; the others write nothing (or lose on the unique index).
    const given = results.filter((r) => r.status === "fulfilled" && r.value !== null);
    expect(given).toHaveLength(1);
    expect(await ask(30)).toBeNull();
    expect(await balanceOf(handle.db, a.accountId)).toBe(100);
    const rows = await handle.db.select().from(creditLedger).where(eq(creditLedger.jobId, jobId));
    expect(rows.map((r) => [r.type, r.amount])).toEqual([
      ["spend", -30],
      ["refund", 30],
    ]);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });

  test("a monitored answer is refunded once; an answer of an uncharged run is not", async () => {
    const a = await createTestAccount(handle.db, { credits: 100 });
    const runId = randomUUID();
    expect(await runCharge(a.accountId, 20, runId)).not.toBeNull();
    const answer = await answerOf(runId);
    const ask = (monitorAnswerId: string, monitorRunId = runId) =>
      refund(handle.db, {
        accountId: a.accountId,
        amount: 5,
        description: "answer failed",
        ref: { monitorRunId, monitorAnswerId },
      });
    expect(await ask(answer)).toEqual({ balance: 85 });
    expect(await ask(answer)).toBeNull();
    expect(await ask(await answerOf(runId))).toEqual({ balance: 90 });
    expect(await ask(await answerOf(runId), randomUUID())).toBeNull();
    expect(await balanceOf(handle.db, a.accountId)).toBe(90);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });
});

describe("credits.low", () => {
  test("written once per crossing of the threshold, only for a listening account", async () => {
    const a = await createTestAccount(handle.db, { credits: 50 });
    const [endpoint] = await handle.db
      .insert(webhookEndpoints)
      .values({
        accountId: a.accountId,
        url: "https://hooks.example/in",
        events: ["credits.low"],
        secret: "whsec_x",
      })
      .returning();
    const silent = await createTestAccount(handle.db, { credits: 50 });
    for (const cost of [20, 15, 10]) await runCharge(a.accountId, cost); // 50 → 30 → 15 (crossing) → 5
    for (const cost of [20, 15]) await runCharge(silent.accountId, cost);
    await addCredits(handle.db, a.accountId, 40, "grant", "top-up"); // 45
    const last = randomUUID();
    await runCharge(a.accountId, 30, last); // 45 → 15: a second crossing
    const events = await handle.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.type, "credits.low"))
      .orderBy(webhookEvents.createdAt);
    expect(events.map((e) => e.accountId)).toEqual([a.accountId, a.accountId]);
    expect(events.map((e) => (e.payload as { data: unknown }).data)).toEqual([
      expect.objectContaining({ balance: 15, threshold: 20 }),
      { balance: 15, threshold: 20, runId: last },
    ]);
    const deliveries = await handle.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint!.id));
    expect(deliveries).toHaveLength(2);
  });
});
