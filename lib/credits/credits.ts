import { and, eq, gte, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { accounts, creditLedger, type LedgerType } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { type CreditAccountView, RECENT_TRANSACTIONS } from "./view";

export { type CreditAccountView, creditAccount, RECENT_TRANSACTIONS } from "./view";

export const SIGNUP_BONUS = 100;

/** Adds credits (grant, purchase, positive adjustment) with its ledger row, in one transaction. */
export async function grantCredits(
  db: Db,
  accountId: string,
  amount: number,
  opts: { type?: Extract<LedgerType, "grant" | "purchase" | "adjustment">; description: string },
): Promise<{ balance: number }> {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error("grant amount must be a positive integer");
  return db.transaction((tx) => addCredits(tx, accountId, amount, opts.type ?? "grant", opts.description));
}

export async function addCredits(
  tx: Tx,
  accountId: string,
  amount: number,
  type: LedgerType,
  description: string,
  jobId: string | null = null,
): Promise<{ balance: number }> {
  const [row] = await tx
    .update(accounts)
    .set({ creditBalance: sql`${accounts.creditBalance} + ${amount}` })
    .where(eq(accounts.id, accountId))
    .returning({ balance: accounts.creditBalance });
  if (!row) throw new Error(`account ${accountId} not found`);
  await tx
    .insert(creditLedger)
    .values({ accountId, type, amount, balanceAfter: row.balance, description, jobId });
  return row;
}

/**
 * Takes `cost` credits, or throws 402 INSUFFICIENT_CREDITS with required/available.
 * The conditional UPDATE is the guard: concurrent charges can never take the balance below zero.
 * Call inside the transaction that creates the job; write the ledger row with `recordSpend` once the job exists.
 */
export async function takeCredits(
  tx: Tx,
  accountId: string,
  cost: number,
): Promise<{ balance: number; creditsLowThreshold: number }> {
  const [row] = await tx
    .update(accounts)
    .set({
      creditBalance: sql`${accounts.creditBalance} - ${cost}`,
      totalUsed: sql`${accounts.totalUsed} + ${cost}`,
    })
    .where(and(eq(accounts.id, accountId), gte(accounts.creditBalance, cost)))
    .returning({ balance: accounts.creditBalance, creditsLowThreshold: accounts.creditsLowThreshold });
  if (row) return row;
  const [current] = await tx
    .select({ balance: accounts.creditBalance })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  throw new AppError(
    "INSUFFICIENT_CREDITS",
    `This operation costs ${cost} credits; the balance is ${current?.balance ?? 0}.`,
    {
      required: cost,
      available: current?.balance ?? 0,
    },
  );
}

export async function recordSpend(
  tx: Tx,
  accountId: string,
  cost: number,
  balanceAfter: number,
  jobId: string,
  description: string,
) {
  await tx
    .insert(creditLedger)
    .values({ accountId, type: "spend", amount: -cost, balanceAfter, description, jobId });
}

/**
 * Gives a failed job's credits back. The unique (job, type) ledger index makes a second refund
 * impossible; callers also guard with the job's state transition. Returns false if already refunded.
 */
export async function refundJobCredits(
  tx: Tx,
  job: { id: string; accountId: string; tool: string; creditsCharged: number },
  reason: string,
): Promise<boolean> {
  if (job.creditsCharged <= 0) return false;
  const inserted = await tx.execute(sql`
    with bal as (
      update accounts set credit_balance = credit_balance + ${job.creditsCharged},
        total_used = greatest(0, total_used - ${job.creditsCharged})
      where id = ${job.accountId}
        and not exists (select 1 from credit_ledger where job_id = ${job.id} and type = 'refund')
      returning credit_balance
    )
    insert into credit_ledger (account_id, type, amount, balance_after, description, job_id)
    select ${job.accountId}, 'refund', ${job.creditsCharged}, credit_balance,
      ${`Refund: ${job.tool} job ${job.id} failed (${reason})`}, ${job.id}
    from bal
    returning id`);
  return rowsOf(inserted).length > 0;
}

/**
 * Gives back part of a completed job's charge (the share of the parts that failed), as the job's one refund row.
 * The unique (job, type) ledger index makes it happen at most once, and a job refunded this way can no longer
 * fail (it is completed), so the full refund never follows it. Returns false if the job already had a refund.
 */
export async function refundJobShare(
  tx: Tx,
  job: { id: string; accountId: string; creditsCharged: number },
  amount: number,
  description: string,
): Promise<boolean> {
  if (!Number.isInteger(amount) || amount <= 0 || amount > job.creditsCharged) {
    throw new Error(`refund share must be a whole number in 1..${job.creditsCharged}`);
  }
  const inserted = await tx.execute(sql`
    with bal as (
      update accounts set credit_balance = credit_balance + ${amount},
        total_used = greatest(0, total_used - ${amount})
      where id = ${job.accountId}
        and not exists (select 1 from credit_ledger where job_id = ${job.id} and type = 'refund')
      returning credit_balance
    )
    insert into credit_ledger (account_id, type, amount, balance_after, description, job_id)
    select ${job.accountId}, 'refund', ${amount}, credit_balance, ${description}, ${job.id}
    from bal
    returning id`);
  return rowsOf(inserted).length > 0;
}

/** The balance, total used and the recent transactions, in one statement (one round trip). */
export async function getCreditAccount(db: DbOrTx, accountId: string): Promise<CreditAccountView> {
  const rows = rowsOf<{
    balance: number;
    total_used: number;
    id: string | number | null;
    type: LedgerType | null;
    amount: number | null;
    description: string | null;
    balance_after: number | null;
    job_id: string | null;
    created_at: Date | string | null;
  }>(
    await db.execute(sql`
      select a.credit_balance as balance, a.total_used, l.id, l.type, l.amount, l.description, l.balance_after,
        l.job_id, l.created_at
      from accounts a
      left join lateral (
        select id, type, amount, description, balance_after, job_id, created_at from credit_ledger
        where account_id = a.id order by id desc limit ${RECENT_TRANSACTIONS}
      ) l on true
      where a.id = ${accountId}
      order by l.id desc`),
  );
  const account = rows[0];
  if (!account) throw new AppError("NOT_FOUND", "Account not found.");
  return {
    balance: Number(account.balance),
    totalUsed: Number(account.total_used),
    recentTransactions: rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        type: r.type!,
        amount: Number(r.amount),
        description: r.description!,
        balanceAfter: Number(r.balance_after),
        jobId: r.job_id,
        createdAt: new Date(r.created_at!).toISOString(),
      })),
  };
}

/** The invariant: balance = sum of ledger amounts. Returns the accounts where it does not hold. */
export async function findLedgerMismatches(db: DbOrTx) {
  const result = await db.execute<{ account_id: string; balance: number; ledger_sum: number }>(sql`
    select a.id as account_id, a.credit_balance as balance, coalesce(sum(l.amount), 0)::int as ledger_sum
    from accounts a left join credit_ledger l on l.account_id = a.id
    group by a.id
    having a.credit_balance <> coalesce(sum(l.amount), 0)`);
  return rowsOf<{ account_id: string; balance: number; ledger_sum: number }>(result);
}
