import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { accounts, type Job } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { newMessageId } from "@/lib/webhooks/outbox";
import { JOBS_CHANNEL } from "./events";

/** One charge: the account, the tool and its input, the cost and the idempotency record to write. */
export interface ChargeParams {
  accountId: string;
  tool: string;
  input: unknown;
  cost: number;
  idempotency?: { key: string; requestHash: string };
}

/** The jobs (and the balance after each charge) a batched charge wrote, by the ids it was given. */
export async function chargesWritten(db: Db, ids: string[]) {
  return rowsOf<{ id: string; balance_after: number; created_at: Date | string; expires_at: Date | string }>(
    await db.execute(sql`
      select j.id, l.balance_after, j.created_at, j.expires_at
      from jobs j join credit_ledger l on l.job_id = j.id and l.type = 'spend'
      where j.id in (select unnest(${`{${ids.join(",")}}`}::uuid[]))`),
  );
}

export function pendingJob(
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
export async function chargeMany(
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
export async function chargeOne(db: Db, p: ChargeParams): Promise<{ job: Job; balance: number }> {
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
