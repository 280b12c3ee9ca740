import { desc, eq, sql } from "drizzle-orm";
import { creditPurchase } from "@/lib/credits/ledger";
import type { Db, DbOrTx } from "@/lib/db/client";
import { creditPurchases } from "@/lib/db/schema";

export interface PurchaseInput {
  accountId: string;
  eventId: string;
  checkoutSessionId: string;
  paymentIntentId: string | null;
  packId: string;
  packName: string;
  credits: number;
  amountTotal: number;
  currency: string;
  customerEmail: string | null;
}

/**
 * Applies one paid purchase exactly once: the receipt row, the balance and the `purchase` ledger row (keyed by
 * the event id) in one statement (`creditPurchase` of lib/credits), so one transaction. A replayed event (or a second event for the same
 * session) inserts nothing and moves nothing. Returns whether the credits were added.
 */
export async function applyPurchase(
  db: Db,
  p: PurchaseInput,
): Promise<{ applied: boolean; balance?: number }> {
  const description = `Purchase: ${p.packName} pack, ${p.credits} credits (${p.checkoutSessionId})`;
  const credited = await creditPurchase(db, {
    receipt: sql`
      insert into credit_purchases (account_id, event_id, checkout_session_id, payment_intent_id, pack_id,
        credits, amount_total, currency, customer_email)
      values (${p.accountId}, ${p.eventId}, ${p.checkoutSessionId}, ${p.paymentIntentId}, ${p.packId},
        ${p.credits}, ${p.amountTotal}, ${p.currency}, ${p.customerEmail})
      on conflict do nothing
      returning account_id, credits`,
    eventId: p.eventId,
    credits: p.credits,
    description,
  });
  return credited ? { applied: true, balance: credited.balance } : { applied: false };
}

export async function listPurchases(db: DbOrTx, accountId: string, limit = 50) {
  return db
    .select()
    .from(creditPurchases)
    .where(eq(creditPurchases.accountId, accountId))
    .orderBy(desc(creditPurchases.createdAt))
    .limit(limit);
}
