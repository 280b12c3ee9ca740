import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { charge, chargeBatchStatement, insufficientCredits } from "@/lib/credits/ledger";
import type { Db } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import type { Job } from "@/lib/db/schema";
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
 * Several charges of one account in ONE statement, in arrival order (`chargeBatchStatement` of lib/credits:
 * the longest prefix the balance covers is taken), each accepted charge with its job, exactly as chargeOne
 * would write them one after another. Returns the accepted charges by job id; the others were not written.
 */
export async function chargeMany(
  db: Db,
  accountId: string,
  charges: (ChargeParams & { id: string })[],
): Promise<Map<string, { job: Job; balance: number }>> {
  const rows = rowsOf<{
    id: string;
    balance_after: number;
    created_at: Date | string;
    expires_at: Date | string;
  }>(
    await db.execute(
      chargeBatchStatement(
        accountId,
        charges.map((c) => ({
          jobId: c.id,
          cost: c.cost,
          description: `${c.tool} job ${c.id}`,
          low: { jobId: c.id, tool: c.tool },
          fields: { tool: c.tool, input: c.input },
        })),
        {
          work: sql`job as (
            insert into jobs (id, account_id, tool, input, credits_charged)
            select ok.job_id, ${accountId}, ok.fields->>'tool', ok.fields->'input', ok.cost
            from ok, charged order by ok.ord
            returning id, created_at, expires_at
          )`,
          select: sql`job.id, ok.balance_after, job.created_at, job.expires_at,
            pg_notify(${JOBS_CHANNEL}, '') as notified`,
          from: sql`job join ok on ok.job_id = job.id`,
        },
      ),
    ),
  );
  const byId = new Map(charges.map((c) => [c.id, c]));
  const out = new Map<string, { job: Job; balance: number }>();
  for (const row of rows) {
    const c = byId.get(row.id)!;
    out.set(row.id, { job: pendingJob(row.id, c, row), balance: Number(row.balance_after) });
  }
  return out;
}

/**
 * One charge in one statement (`charge` of lib/credits): the pending job, its spend ledger row, the idempotency
 * record, credits.low when the charge crosses the threshold, and the runners' wake-up. 402 with the balance when
 * the balance does not cover it; nothing is written then.
 */
export async function chargeOne(db: Db, p: ChargeParams): Promise<{ job: Job; balance: number }> {
  const id = randomUUID();
  const idem = p.idempotency
    ? sql`, idem as (
        insert into idempotency_records (account_id, key, request_hash, job_id)
        select ${p.accountId}, ${p.idempotency.key}, ${p.idempotency.requestHash}, id from job)`
    : sql``;
  const row = await charge<{ created_at: Date | string; expires_at: Date | string }>(db, {
    accountId: p.accountId,
    cost: p.cost,
    description: `${p.tool} job ${id}`,
    ref: { jobId: id },
    low: { jobId: id, tool: p.tool },
    work: sql`job as (
        insert into jobs (id, account_id, tool, input, credits_charged)
        select ${id}, ${p.accountId}, ${p.tool}, ${JSON.stringify(p.input)}::jsonb, ${p.cost}::int from charged
        returning id, created_at, expires_at
      )${idem}`,
    select: sql`job.created_at, job.expires_at, pg_notify(${JOBS_CHANNEL}, '') as notified`,
    from: sql`job`,
  });
  if (!row) throw await insufficientCredits(db, p.accountId, p.cost);
  return { job: pendingJob(id, p, row), balance: row.balance };
}
