import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/**
 * A paid credit pack: one row per completed Checkout Session, written in the transaction of its `purchase`
 * ledger row. The receipts the billing page lists.
 */
export const creditPurchases = pgTable(
  "credit_purchases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The webhook event that applied it (`evt_…`). */
    eventId: text("event_id").notNull(),
    /** The Checkout Session (`cs_…`). */
    checkoutSessionId: text("checkout_session_id").notNull(),
    paymentIntentId: text("payment_intent_id"),
    packId: text("pack_id").notNull(),
    credits: integer("credits").notNull(),
    /** In the currency's smallest unit, as the payment provider reports it. */
    amountTotal: integer("amount_total").notNull(),
    currency: text("currency").notNull(),
    customerEmail: text("customer_email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("credit_purchases_event_unique").on(t.eventId),
    uniqueIndex("credit_purchases_session_unique").on(t.checkoutSessionId),
    index("credit_purchases_account_idx").on(t.accountId, t.createdAt),
    check("credit_purchases_credits_positive", sql`${t.credits} > 0`),
    check("credit_purchases_amount_non_negative", sql`${t.amountTotal} >= 0`),
  ],
);

export type CreditPurchase = typeof creditPurchases.$inferSelect;
