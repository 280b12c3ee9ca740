import { createHash, randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { isUniqueViolation, redactDbError } from "@/lib/db/errors";
import { rowsOf } from "@/lib/db/rows";
import { accounts, idempotencyRecords, type Job, jobs } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { readServerEnv } from "@/lib/tools/server-env";
import type { AnyTool, Env } from "@/lib/tools/types";
import { judgeToolInput } from "@/lib/tools/verdict";
import { newMessageId } from "@/lib/webhooks/outbox";
import { JOBS_CHANNEL, jobEvents } from "./events";

export interface CreateJobInput {
  accountId: string;
  tool: AnyTool;
  /** The validated input, as stored and handed to the tool. */
  input: unknown;
  idempotency?: { key: string; requestHash: string };
  /** The server's environment, for the tool's availability check (provider keys). */
  env?: Env;
}

/** Canonical JSON (sorted keys) so that the same body hashes the same whatever its key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

export function requestHash(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method} ${path}\n${canonical(body)}`)
    .digest("hex");
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** An idempotency key: 1 to 255 visible ASCII characters (the header and the MCP argument alike). */
export const idempotencyKeySchema = z
  .string({ error: "Must be a string." })
  .regex(IDEMPOTENCY_KEY, { error: "1 to 255 visible ASCII characters." });

export function readIdempotencyKey(req: Request): string | undefined {
  const key = req.headers.get("idempotency-key");
  if (key === null) return undefined;
  if (!idempotencyKeySchema.safeParse(key).success) {
    throw new AppError("VALIDATION_ERROR", "Idempotency-Key must be 1 to 255 visible ASCII characters.", {
      field: "Idempotency-Key",
      issues: [{ field: "Idempotency-Key", message: "1 to 255 visible ASCII characters." }],
    });
  }
  return key;
}

async function findReplay(db: Db, accountId: string, idem: { key: string; requestHash: string }) {
  const [record] = await db
    .select({ requestHash: idempotencyRecords.requestHash, job: jobs })
    .from(idempotencyRecords)
    .innerJoin(jobs, eq(jobs.id, idempotencyRecords.jobId))
    .where(and(eq(idempotencyRecords.accountId, accountId), eq(idempotencyRecords.key, idem.key)));
  if (!record) return null;
  if (record.requestHash !== idem.requestHash) {
    throw new AppError(
      "VALIDATION_ERROR",
      "This Idempotency-Key was already used with a different request.",
      {
        field: "Idempotency-Key",
        reason: "idempotency_key_reused",
        issues: [{ field: "Idempotency-Key", message: "Already used with a different request." }],
      },
    );
  }
  return record.job;
}

/**
 * The charge, the pending job, its spend ledger row, the idempotency record and the runners' wake-up
 * (NOTIFY jobs_created, delivered on commit) in ONE statement: one round trip, and atomic like the
 * transaction it replaces. The conditional UPDATE is the guard (a balance never goes below zero); when it
 * matches nothing, nothing else is written and the answer is 402 with the balance.
 *
 * Charges of one account that arrive while its statement is in flight wait and then go together as one
 * statement (chargeMany): each still gets its own job, ledger row and balance after it, but the account row is
 * locked and flushed once per round trip instead of once per job (a busy account queued on that lock).
 */
export function chargeAndInsertJob(db: Db, p: ChargeParams): Promise<{ job: Job; balance: number }> {
  // A charge with an idempotency key (its record's unique key can fail the statement) or without a cost goes
  // alone; others queue behind the account's statement in flight and then go together.
  if (p.idempotency || p.cost <= 0) return chargeOne(db, p);
  let lanes = chargeLanes.get(db);
  if (!lanes) {
    lanes = new Map();
    chargeLanes.set(db, lanes);
  }
  let lane = lanes.get(p.accountId);
  if (!lane) {
    lane = { waiting: [], busy: false };
    lanes.set(p.accountId, lane);
  }
  const current = lane;
  const account = lanes;
  return new Promise((resolve, reject) => {
    current.waiting.push({ p, resolve, reject });
    if (!current.busy) void drainCharges(db, account, p.accountId, current);
  });
}

interface ChargeParams {
  accountId: string;
  tool: string;
  input: unknown;
  cost: number;
  idempotency?: { key: string; requestHash: string };
}
interface WaitingCharge {
  p: ChargeParams;
  resolve: (r: { job: Job; balance: number }) => void;
  reject: (err: unknown) => void;
}
interface ChargeLane {
  waiting: WaitingCharge[];
  busy: boolean;
}
const chargeLanes = new WeakMap<object, Map<string, ChargeLane>>();

/**
 * One account's charges, one statement at a time: the first alone, then whatever queued meanwhile as one
 * statement (chargeMany), so a busy account's row lock is taken once per round trip rather than once per job.
 */
async function drainCharges(db: Db, lanes: Map<string, ChargeLane>, accountId: string, lane: ChargeLane) {
  lane.busy = true;
  try {
    await drainLane(db, accountId, lane);
  } catch (err) {
    // Nothing above should throw; if it does, no caller is left waiting for ever.
    for (const w of lane.waiting.splice(0)) w.reject(err);
  } finally {
    lane.busy = false;
    // A charge that queued while this drain was finishing is not left behind.
    if (lane.waiting.length > 0) void drainCharges(db, lanes, accountId, lane);
    else lanes.delete(accountId);
  }
}

async function drainLane(db: Db, accountId: string, lane: ChargeLane) {
  while (lane.waiting.length > 0) {
    const batch = lane.waiting.splice(0);
    if (batch.length === 1) {
      await chargeOne(db, batch[0]!.p).then(batch[0]!.resolve, batch[0]!.reject);
      continue;
    }
    const ids = batch.map(() => randomUUID());
    let accepted: Map<string, { job: Job; balance: number }>;
    try {
      accepted = await chargeMany(
        db,
        accountId,
        batch.map((w, i) => ({ ...w.p, id: ids[i]! })),
      );
    } catch (err) {
      console.error("[jobs] batched charge failed", redactDbError(err));
      // The statement is atomic, but an error can also come after its commit (the connection lost on the way
      // back): what it wrote is read back, so a charge is never made twice; the rest are tried alone below.
      const written = await chargesWritten(db, ids).catch(() => null);
      if (!written) {
        for (const w of batch) w.reject(err);
        continue;
      }
      accepted = new Map();
      for (const row of written) {
        const w = batch[(ids as string[]).indexOf(row.id)]!;
        accepted.set(row.id, { job: pendingJob(row.id, w.p, row), balance: Number(row.balance_after) });
      }
    }
    // What the batch could not cover (a balance running out part-way) is tried alone: charged if it still
    // fits, 402 otherwise, exactly as if it had come by itself.
    await Promise.all(
      batch.map((w, i) => {
        const done = accepted.get(ids[i]!);
        if (done) return w.resolve(done);
        return chargeOne(db, w.p).then(w.resolve, w.reject);
      }),
    );
  }
}

/** The jobs (and the balance after each charge) a batched charge wrote, by the ids it was given. */
async function chargesWritten(db: Db, ids: string[]) {
  return rowsOf<{ id: string; balance_after: number; created_at: Date | string; expires_at: Date | string }>(
    await db.execute(sql`
      select j.id, l.balance_after, j.created_at, j.expires_at
      from jobs j join credit_ledger l on l.job_id = j.id and l.type = 'spend'
      where j.id in (select unnest(${`{${ids.join(",")}}`}::uuid[]))`),
  );
}

function pendingJob(
  id: string,
  p: ChargeParams,
  row: { created_at: Date | string; expires_at: Date | string },
): Job {
  return {
    id,
    accountId: p.accountId,
    tool: p.tool,
    status: "pending",
    input: p.input,
    result: null,
    error: null,
    creditsCharged: p.cost,
    creditsRefunded: false,
    creditsRefundedAmount: 0,
    providerUsage: null,
    attempts: 0,
    leaseOwner: null,
    leaseExpiresAt: null,
    createdAt: new Date(row.created_at),
    startedAt: null,
    completedAt: null,
    expiresAt: new Date(row.expires_at),
  };
}

/**
 * Several charges of one account in ONE statement, in arrival order: the account row is locked, the longest
 * prefix of the charges its balance covers is taken (balance never below zero), and each accepted charge gets
 * its job, its spend ledger row (with the balance after it) and, for the one that takes the balance under the
 * threshold, its credits.low event, exactly as chargeOne would write them one after another. Returns the
 * accepted charges by job id; the others were not written.
 */
async function chargeMany(
  db: Db,
  accountId: string,
  charges: (ChargeParams & { id: string })[],
): Promise<Map<string, { job: Job; balance: number }>> {
  const now = new Date().toISOString();
  const payload = JSON.stringify(
    charges.map((c, ord) => ({
      ord,
      id: c.id,
      tool: c.tool,
      input: c.input,
      cost: c.cost,
      description: `${c.tool} job ${c.id}`,
      low_id: newMessageId(),
    })),
  );
  const listening = sql`webhook_endpoints e where e.account_id = ${accountId} and e.enabled
    and e.events @> array['credits.low']::text[]`;
  const rows = rowsOf<{
    id: string;
    balance_after: number;
    created_at: Date | string;
    expires_at: Date | string;
  }>(
    await db.execute(sql`
      with req as (
        select * from jsonb_to_recordset(${payload}::jsonb)
          as r(ord int, id uuid, tool text, input jsonb, cost int, description text, low_id text)
      ), cur as (
        select credit_balance, credits_low_threshold from accounts where id = ${accountId} for update
      ), ok as (
        select * from (
          select req.*, cur.credit_balance - sum(req.cost) over (order by req.ord) as balance_after,
                 cur.credits_low_threshold as threshold
          from req, cur
        ) a where balance_after >= 0
      ), charged as (
        update accounts set credit_balance = credit_balance - t.total, total_used = total_used + t.total
        from (select sum(cost)::int as total from ok) t
        where id = ${accountId} and t.total > 0
        returning credit_balance
      ), job as (
        insert into jobs (id, account_id, tool, input, credits_charged)
        select ok.id, ${accountId}, ok.tool, ok.input, ok.cost from ok, charged order by ok.ord
        returning id, created_at, expires_at
      ), spend as (
        insert into credit_ledger (account_id, type, amount, balance_after, description, job_id)
        select ${accountId}, 'spend', -ok.cost, ok.balance_after, ok.description, ok.id
        from ok, charged order by ok.ord
      ), low_event as (
        insert into webhook_events (id, account_id, type, payload)
        select ok.low_id, ${accountId}, 'credits.low',
          jsonb_build_object('type', 'credits.low', 'timestamp', ${now}::text, 'data',
            jsonb_build_object('balance', ok.balance_after, 'threshold', ok.threshold, 'jobId', ok.id,
              'tool', ok.tool))
        from ok, charged
        where ok.balance_after < ok.threshold and ok.balance_after + ok.cost >= ok.threshold
          and exists (select 1 from ${listening})
        returning id
      ), low_deliveries as (
        insert into webhook_deliveries (event_id, endpoint_id)
        select low_event.id, e.id from low_event, ${listening}
      )
      select job.id, ok.balance_after, job.created_at, job.expires_at,
        pg_notify(${JOBS_CHANNEL}, '') as notified
      from job join ok on ok.id = job.id`),
  );
  const byId = new Map(charges.map((c) => [c.id, c]));
  const out = new Map<string, { job: Job; balance: number }>();
  for (const row of rows) {
    const c = byId.get(row.id)!;
    out.set(row.id, { job: pendingJob(row.id, c, row), balance: Number(row.balance_after) });
  }
  return out;
}

/** One charge in one statement (below). */
async function chargeOne(db: Db, p: ChargeParams): Promise<{ job: Job; balance: number }> {
  const id = randomUUID();
  const description = `${p.tool} job ${id}`;
  const idem = p.idempotency
    ? sql`, idem as (
        insert into idempotency_records (account_id, key, request_hash, job_id)
        select ${p.accountId}, ${p.idempotency.key}, ${p.idempotency.requestHash}, id from job)`
    : sql``;
  // credits.low (the outbox event and one pending delivery per subscribed endpoint) when this charge takes
  // the balance from at least the account's threshold to under it: written by the same statement, so the
  // event exists exactly when the charge does.
  const lowEventId = newMessageId();
  const lowPayload = (data: ReturnType<typeof sql>) =>
    sql`jsonb_build_object('type', 'credits.low', 'timestamp', ${new Date().toISOString()}::text, 'data', ${data})`;
  const listening = sql`webhook_endpoints e where e.account_id = ${p.accountId} and e.enabled
    and e.events @> array['credits.low']::text[]`;
  const creditsLow =
    p.cost > 0
      ? sql`, low_event as (
        insert into webhook_events (id, account_id, type, payload)
        select ${lowEventId}, ${p.accountId}, 'credits.low', ${lowPayload(
          sql`jsonb_build_object('balance', charged.credit_balance, 'threshold', charged.credits_low_threshold,
            'jobId', job.id, 'tool', ${p.tool}::text)`,
        )}
        from charged, job
        where charged.credit_balance < charged.credits_low_threshold
          and charged.credit_balance + ${p.cost}::int >= charged.credits_low_threshold
          and exists (select 1 from ${listening})
        returning id
      ), low_deliveries as (
        insert into webhook_deliveries (event_id, endpoint_id)
        select low_event.id, e.id from low_event, ${listening})`
      : sql``;
  const rows = rowsOf<{ balance: number; created_at: Date | string; expires_at: Date | string }>(
    await db.execute(sql`
      with charged as (
        update accounts set credit_balance = credit_balance - ${p.cost}::int, total_used = total_used + ${p.cost}::int
        where id = ${p.accountId} and credit_balance >= ${p.cost}::int
        returning credit_balance, credits_low_threshold
      ), job as (
        insert into jobs (id, account_id, tool, input, credits_charged)
        select ${id}, ${p.accountId}, ${p.tool}, ${JSON.stringify(p.input)}::jsonb, ${p.cost}::int from charged
        returning id, created_at, expires_at
      ), spend as (
        insert into credit_ledger (account_id, type, amount, balance_after, description, job_id)
        select ${p.accountId}, 'spend', -${p.cost}::int, charged.credit_balance, ${description}, job.id
        from charged, job
      )${idem}${creditsLow}
      select charged.credit_balance as balance, job.created_at, job.expires_at,
        pg_notify(${JOBS_CHANNEL}, '') as notified
      from charged, job`),
  );
  const row = rows[0];
  if (!row) {
    const [current] = await db
      .select({ balance: accounts.creditBalance })
      .from(accounts)
      .where(eq(accounts.id, p.accountId));
    throw new AppError(
      "INSUFFICIENT_CREDITS",
      `This operation costs ${p.cost} credits; the balance is ${current?.balance ?? 0}.`,
      { required: p.cost, available: current?.balance ?? 0 },
    );
  }
  const job = pendingJob(id, p, row);
  return { job, balance: Number(row.balance) };
}

/**
 * Refuses a tool that cannot run here, then charges the tool's cost and inserts the pending job, its spend ledger row and its idempotency
 * record in one transaction: no charge without a job, no job without its charge.
 * A replay of the same Idempotency-Key and request returns the original job and charges nothing.
 */
export async function createJob(
  db: Db,
  input: CreateJobInput,
): Promise<{ job: Job; replayed: boolean; balance: number | null }> {
  const { accountId, tool, idempotency } = input;
  if (idempotency) {
    const original = await findReplay(db, accountId, idempotency);
    if (original) return { job: original, replayed: true, balance: null };
  }
  // Every way in (REST, MCP, dashboard) passes here, so a tool that cannot run on this server is refused
  // before any charge, whoever asks.
  // A tool not built here is still created and charged, then failed with TOOL_UNAVAILABLE and refunded
  // (clients integrate against its real contract); a built tool missing configuration is refused.
  if (!tool.unavailable) {
    // The one rule REST, MCP, the dashboard and GET /capabilities share (lib/tools/verdict.ts).
    const verdict = await judgeToolInput(db, tool, input.input, readServerEnv(input.env ?? process.env));
    if (!verdict.ok) {
      throw new AppError("VALIDATION_ERROR", verdict.message, { ...verdict.details, reason: verdict.reason });
    }
  }
  const cost = tool.cost(input.input);
  try {
    const { job, balance } = await chargeAndInsertJob(db, {
      accountId,
      tool: tool.name,
      input: input.input,
      cost,
      idempotency,
    });
    jobEvents.emit("created", job.id);
    return { job, replayed: false, balance };
  } catch (err) {
    // A concurrent request with the same key won the race; answer as its replay.
    if (idempotency && isUniqueViolation(err)) {
      const original = await findReplay(db, accountId, idempotency);
      if (original) return { job: original, replayed: true, balance: null };
    }
    throw err;
  }
}
