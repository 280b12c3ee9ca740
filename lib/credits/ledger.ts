import { eq, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { accounts } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { newMessageId } from "@/lib/webhooks/outbox";

/**
 * The one module that moves credits. Every write of `accounts.credit_balance`, `accounts.total_used` and
 * `credit_ledger` is built here (test/credits/money-owner.test.ts fails on one elsewhere), as is the
 * `credits.low` event:
 *
 * - a charge is one statement: a conditional UPDATE takes the cost only when the balance covers it (a balance
 *   never goes below zero, however many charges race), and the work it pays for (the caller's CTEs), its spend
 *   ledger row and its credits.low event are written by the same statement, so each exists exactly when the
 *   charge does;
 * - a refund gives back at most what its charge took, once per job or monitored answer (the ledger's unique
 *   indexes back the check);
 * - credits.low is written when a charge takes the balance from at least the account's threshold to under it.
 *
 * Callers compose their own rows into the charge's statement: `before` CTEs (what a condition reads), then the
 * charge (`charged(credit_balance, credits_low_threshold)`: one row when taken, none otherwise), then `work`
 * CTEs that select `from charged`.
 */

/** What a spend is for: a job (one charge per job) or a monitor run (one charge per run). */
type ChargeRef = { jobId: string } | { monitorRunId: string };
/** What a refund gives back: a job (once) or one answer of a monitor run (once per answer). */
type RefundRef = { jobId: string } | { monitorRunId: string; monitorAnswerId: string };

export interface ChargeSpec {
  accountId: string;
  cost: number;
  /** The spend ledger row's description. */
  description: string;
  ref: ChargeRef;
  /** What a credits.low event says beside `balance` and `threshold`: what the charge paid for. */
  low: Record<string, unknown>;
  /** CTEs placed before the charge (`name as (…)`, comma-separated), for `condition` to read. */
  before?: SQL;
  /** A further condition for taking the charge (a monthly cap), over the `before` CTEs. */
  condition?: SQL;
  /** The work the charge pays for: CTEs that select `from charged`, so they are written exactly when it is. */
  work?: SQL;
  /** More columns of the statement's row (beside `balance` and `threshold`), over `charged` and `from`. */
  select?: SQL;
  /** CTEs of `work` joined into the statement's row (`job`, `run`). */
  from?: SQL;
}

/** The statement's row when the charge was taken: the balance after it and the account's threshold. */
export interface Charged {
  balance: number;
  threshold: number;
}

/** The account's endpoints subscribed to credits.low, as a FROM item aliased `e`. */
const listening = (accountId: string | SQL) => sql`webhook_endpoints e where e.account_id = ${accountId}
  and e.enabled and e.events @> array['credits.low']::text[]`;

/**
 * The credits.low event, as two CTEs of a charging statement: the outbox event and one pending delivery per
 * enabled endpoint subscribed to it (nothing when none is), for each row of `from` whose charge took the balance
 * from at least the threshold to under it. The one builder of the event: single and batched charges use it.
 */
function creditsLowCtes(o: {
  accountId: string;
  /** The charged rows (a FROM list). */
  from: SQL;
  balance: SQL;
  threshold: SQL;
  cost: SQL;
  /** The event id (`msg_…`), per row. */
  eventId: SQL;
  /** The event's data beside balance and threshold, as jsonb. */
  data: SQL;
}): SQL {
  const payload = sql`jsonb_build_object('type', 'credits.low', 'timestamp', ${new Date().toISOString()}::text,
    'data', jsonb_build_object('balance', ${o.balance}, 'threshold', ${o.threshold}) || ${o.data})`;
  return sql`low_event as (
      insert into webhook_events (id, account_id, type, payload)
      select ${o.eventId}, ${o.accountId}, 'credits.low', ${payload}
      from ${o.from}
      where ${o.balance} < ${o.threshold} and ${o.balance} + ${o.cost} >= ${o.threshold}
        and exists (select 1 from ${listening(o.accountId)})
      returning id
    ), low_deliveries as (
      insert into webhook_deliveries (event_id, endpoint_id)
      select low_event.id, e.id from low_event, ${listening(o.accountId)}
    )`;
}

function refColumns(ref: ChargeRef | RefundRef): { names: SQL; values: SQL } {
  if ("jobId" in ref) return { names: sql`job_id`, values: sql`${ref.jobId}::uuid` };
  if ("monitorAnswerId" in ref) {
    return {
      names: sql`monitor_run_id, monitor_answer_id`,
      values: sql`${ref.monitorRunId}::uuid, ${ref.monitorAnswerId}::uuid`,
    };
  }
  return { names: sql`monitor_run_id`, values: sql`${ref.monitorRunId}::uuid` };
}

function assertCost(cost: number) {
  if (!Number.isInteger(cost) || cost < 0) throw new Error("a charge must be a whole number of credits");
}

/** The charging statement of `spec` (see `charge`). */
function chargeStatement(spec: ChargeSpec): SQL {
  assertCost(spec.cost);
  const { accountId, cost } = spec;
  const ref = refColumns(spec.ref);
  const low =
    cost > 0
      ? sql`, ${creditsLowCtes({
          accountId,
          from: sql`charged`,
          balance: sql`charged.credit_balance`,
          threshold: sql`charged.credits_low_threshold`,
          cost: sql`${cost}::int`,
          eventId: sql`${newMessageId()}`,
          data: sql`${JSON.stringify(spec.low)}::jsonb`,
        })}`
      : sql``;
  return sql`
    with ${spec.before ? sql`${spec.before}, ` : sql``}charged as (
      update accounts set credit_balance = credit_balance - ${cost}::int, total_used = total_used + ${cost}::int
      where id = ${accountId} and credit_balance >= ${cost}::int${spec.condition ? sql` and ${spec.condition}` : sql``}
      returning credit_balance, credits_low_threshold
    )${spec.work ? sql`, ${spec.work}` : sql``}, spend as (
      insert into credit_ledger (account_id, type, amount, balance_after, description, ${ref.names})
      select ${accountId}, 'spend', -${cost}::int, charged.credit_balance, ${spec.description}, ${ref.values}
      from charged
    )${low}
    select charged.credit_balance as balance, charged.credits_low_threshold as threshold${
      spec.select ? sql`, ${spec.select}` : sql``
    }
    from charged${spec.from ? sql`, ${spec.from}` : sql``}`;
}

/**
 * Takes `spec.cost` credits with the work it pays for, in ONE statement (see the module's comment). Returns the
 * statement's row, or null when the balance (or the condition) did not cover it: then nothing was written.
 */
export async function charge<Extra extends Record<string, unknown> = Record<string, never>>(
  db: DbOrTx,
  spec: ChargeSpec,
): Promise<(Charged & Extra) | null> {
  const [row] = rowsOf<Charged & Extra>(await db.execute(chargeStatement(spec)));
  if (!row) return null;
  return { ...row, balance: Number(row.balance), threshold: Number(row.threshold) };
}

/** One charge of a batch (`chargeBatch`); `fields` are what its work reads (`ok.fields`). */
interface BatchCharge {
  jobId: string;
  cost: number;
  description: string;
  low: Record<string, unknown>;
  fields: Record<string, unknown>;
}

/**
 * Several job charges of one account in ONE statement, in the given order: the account row is locked, the
 * longest prefix its balance covers is taken (never below zero), and each accepted charge gets its work
 * (`work`: CTEs over `ok(ord, job_id, cost, description, fields, balance_after, threshold)` joined with
 * `charged`), its spend ledger row with the balance after it and, for the one that takes the balance under the
 * threshold, its credits.low event, exactly as one `charge` after another would. The statement's rows are the
 * accepted charges (`select`/`from` as in `charge`).
 */
export function chargeBatchStatement(
  accountId: string,
  charges: BatchCharge[],
  o: { work: SQL; select: SQL; from: SQL },
): SQL {
  for (const c of charges) assertCost(c.cost);
  const payload = JSON.stringify(
    charges.map((c, ord) => ({
      ord,
      job_id: c.jobId,
      cost: c.cost,
      description: c.description,
      fields: c.fields,
      low: c.low,
      low_id: newMessageId(),
    })),
  );
  return sql`
    with req as (
      select * from jsonb_to_recordset(${payload}::jsonb)
        as r(ord int, job_id uuid, cost int, description text, fields jsonb, low jsonb, low_id text)
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
    ), ${o.work}, spend as (
      insert into credit_ledger (account_id, type, amount, balance_after, description, job_id)
      select ${accountId}, 'spend', -ok.cost, ok.balance_after, ok.description, ok.job_id
      from ok, charged order by ok.ord
    ), ${creditsLowCtes({
      accountId,
      from: sql`ok, charged`,
      balance: sql`ok.balance_after`,
      threshold: sql`ok.threshold`,
      cost: sql`ok.cost`,
      eventId: sql`ok.low_id`,
      data: sql`ok.low`,
    })}
    select ${o.select} from ${o.from}`;
}

/** An account's balance (0 when there is no such account). */
export async function balanceOf(db: DbOrTx, accountId: string): Promise<number> {
  const [row] = await db
    .select({ balance: accounts.creditBalance })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row?.balance ?? 0;
}

/** 402 INSUFFICIENT_CREDITS for a charge of `cost`, with the account's balance. */
export async function insufficientCredits(db: DbOrTx, accountId: string, cost: number): Promise<AppError> {
  return insufficientCreditsError(cost, await balanceOf(db, accountId));
}

export function insufficientCreditsError(cost: number, available: number, what = "operation"): AppError {
  return new AppError(
    "INSUFFICIENT_CREDITS",
    `This ${what} costs ${cost} credits; the balance is ${available}.`,
    {
      required: cost,
      available,
    },
  );
}

/**
 * Gives `amount` credits back for a charge, in one statement, at most what the charge's spend row took and at
 * most once per job (or per monitored answer): a second refund of the same job or answer, concurrent or not,
 * writes nothing (the ledger's unique indexes on the job's refund row and on the answer back the check).
 * Returns the balance after it, or null when nothing was given back.
 */
export async function refund(
  db: DbOrTx,
  r: { accountId: string; amount: number; description: string; ref: RefundRef },
): Promise<{ balance: number } | null> {
  if (!Number.isInteger(r.amount) || r.amount <= 0)
    throw new Error("a refund must be a positive whole number");
  const ref = refColumns(r.ref);
  const spend =
    "jobId" in r.ref
      ? sql`job_id = ${r.ref.jobId} and type = 'spend'`
      : sql`monitor_run_id = ${r.ref.monitorRunId} and type = 'spend'`;
  const done =
    "jobId" in r.ref
      ? sql`job_id = ${r.ref.jobId} and type = 'refund'`
      : sql`monitor_answer_id = ${r.ref.monitorAnswerId}`;
  const [row] = rowsOf<{ balance_after: number }>(
    await db.execute(sql`
      with bal as (
        update accounts set credit_balance = credit_balance + ${r.amount}::int,
          total_used = greatest(0, total_used - ${r.amount}::int)
        where id = ${r.accountId}
          and ${r.amount}::int <= coalesce((select -amount from credit_ledger where ${spend}), 0)
          and not exists (select 1 from credit_ledger where ${done})
        returning credit_balance
      )
      insert into credit_ledger (account_id, type, amount, balance_after, description, ${ref.names})
      select ${r.accountId}, 'refund', ${r.amount}::int, credit_balance, ${r.description}, ${ref.values}
      from bal
      returning balance_after`),
  );
  return row ? { balance: Number(row.balance_after) } : null;
}

/**
 * Adds credits (a grant, a purchase; an adjustment may be negative, never below a zero balance) with its ledger
 * row. Call inside the transaction that grants them.
 */
export async function addCredits(
  tx: DbOrTx,
  accountId: string,
  amount: number,
  type: "grant" | "purchase" | "adjustment",
  description: string,
): Promise<{ balance: number }> {
  const [row] = rowsOf<{ balance_after: number }>(
    await tx.execute(sql`
      with bal as (
        update accounts set credit_balance = credit_balance + ${amount}::int where id = ${accountId}
        returning credit_balance
      )
      insert into credit_ledger (account_id, type, amount, balance_after, description)
      select ${accountId}, ${type}, ${amount}::int, credit_balance, ${description} from bal
      returning balance_after`),
  );
  if (!row) throw new Error(`account ${accountId} not found`);
  return { balance: Number(row.balance_after) };
}

/**
 * Credits a paid purchase once, in one statement with its receipt: `receipt` is a CTE of the caller's that
 * inserts the receipt (nothing when the payment event was applied before) and returns `account_id, credits`;
 * the balance and the `purchase` ledger row (unique per payment event) follow it. Returns the balance after,
 * or null when the receipt was not new.
 */
export async function creditPurchase(
  db: DbOrTx,
  p: { receipt: SQL; eventId: string; credits: number; description: string },
): Promise<{ balance: number } | null> {
  const [row] = rowsOf<{ balance_after: number }>(
    await db.execute(sql`
      with receipt as (${p.receipt}), bal as (
        update accounts a set credit_balance = a.credit_balance + r.credits
        from receipt r where a.id = r.account_id
        returning a.id, a.credit_balance
      )
      insert into credit_ledger (account_id, type, amount, balance_after, description, event_id)
      select bal.id, 'purchase', ${p.credits}, bal.credit_balance, ${p.description}, ${p.eventId}
      from bal
      returning balance_after`),
  );
  return row ? { balance: Number(row.balance_after) } : null;
}
