import { sql } from "drizzle-orm";
import {
  bigserial,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { jobs } from "./jobs";

export const LEDGER_TYPES = ["grant", "spend", "refund", "purchase", "adjustment"] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];

/**
 * Every change of a balance, written in the transaction that changes it, so that
 * balance = sum(amount) per account always holds.
 */
export const creditLedger = pgTable(
  "credit_ledger",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    type: text("type", { enum: LEDGER_TYPES }).notNull(),
    amount: integer("amount").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    description: text("description").notNull(),
    /** Set for spends and refunds; jobs are purged after 7 days, the ledger row stays. */
    jobId: uuid("job_id").references(() => jobs.id, { onDelete: "set null" }),
    /** Set for purchases: the payment provider's event id, so a replayed event can never credit twice. */
    eventId: text("event_id"),
    /** Set for a monitor run's spend (once per run) and an answer's refund (once per answer). */
    monitorRunId: uuid("monitor_run_id"),
    monitorAnswerId: uuid("monitor_answer_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("credit_ledger_account_idx").on(t.accountId, t.id),
    // A job is charged once and refunded at most once.
    uniqueIndex("credit_ledger_job_type_unique").on(t.jobId, t.type).where(sql`${t.jobId} is not null`),
    uniqueIndex("credit_ledger_monitor_run_spend_unique")
      .on(t.monitorRunId)
      .where(sql`${t.monitorRunId} is not null and ${t.type} = 'spend'`),
    uniqueIndex("credit_ledger_monitor_answer_refund_unique")
      .on(t.monitorAnswerId)
      .where(sql`${t.monitorAnswerId} is not null`),
    // A payment event is applied once.
    uniqueIndex("credit_ledger_event_unique").on(t.eventId).where(sql`${t.eventId} is not null`),
    check(
      "credit_ledger_type_valid",
      sql`${t.type} in ('grant', 'spend', 'refund', 'purchase', 'adjustment')`,
    ),
    check("credit_ledger_amount_nonzero", sql`${t.amount} <> 0`),
    check(
      "credit_ledger_sign",
      sql`(${t.type} = 'spend' and ${t.amount} < 0) or (${t.type} in ('grant', 'refund', 'purchase') and ${t.amount} > 0) or ${t.type} = 'adjustment'`,
    ),
    check("credit_ledger_balance_after_non_negative", sql`${t.balanceAfter} >= 0`),
  ],
);

export type LedgerEntry = typeof creditLedger.$inferSelect;
