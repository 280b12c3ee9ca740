import { sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import type { LedgerType } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { addCredits, refund } from "./ledger";
import { type CreditAccountView, RECENT_TRANSACTIONS } from "./view";

export { addCredits } from "./ledger";
export { type CreditAccountView, RECENT_TRANSACTIONS } from "./view";

export const SIGNUP_BONUS = 100;

/** Adds credits (grant, purchase, positive adjustment) with its ledger row. */
export async function grantCredits(
  db: Db,
  accountId: string,
  amount: number,
  opts: { type?: Extract<LedgerType, "grant" | "purchase" | "adjustment">; description: string },
): Promise<{ balance: number }> {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error("grant amount must be a positive integer");
  return addCredits(db, accountId, amount, opts.type ?? "grant", opts.description);
}

/**
 * Gives a failed job's whole charge back, once: the job's state transition guards it, and `refund` writes at
 * most one refund row per job. Returns false if the job was already refunded (or charged nothing).
 */
export async function refundJobCredits(
  tx: Tx,
  job: { id: string; accountId: string; tool: string; creditsCharged: number },
  reason: string,
): Promise<boolean> {
  if (job.creditsCharged <= 0) return false;
  const done = await refund(tx, {
    accountId: job.accountId,
    amount: job.creditsCharged,
    description: `Refund: ${job.tool} job ${job.id} failed (${reason})`,
    ref: { jobId: job.id },
  });
  return done !== null;
}

/**
 * Gives back part of a completed job's charge (the share of the parts that failed), as the job's one refund row.
 * A job refunded this way can no longer fail (it is completed), so the full refund never follows it. Returns
 * false if the job already had a refund.
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
  const done = await refund(tx, { accountId: job.accountId, amount, description, ref: { jobId: job.id } });
  return done !== null;
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
