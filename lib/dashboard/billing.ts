import { and, desc, eq, gt, inArray, isNull } from "drizzle-orm";
import { SIGNUP_BONUS_DESCRIPTION } from "@/lib/accounts/accounts";
import { CheckoutError, startCheckout } from "@/lib/billing/checkout";
import { listPurchases } from "@/lib/billing/purchases";
import type { Db } from "@/lib/db/client";
import { creditLedger, users } from "@/lib/db/schema";
import { publicBaseUrl } from "@/lib/email/links";
import { stripeClient } from "@/lib/providers/stripe/client";
import { FormError } from "./errors";
import { type Actor, requireManager } from "./members";

/** Starts a Checkout for one pack (owner or admin); returns the payment page's URL. */
export async function beginCheckout(db: Db, actor: Actor, packId: string): Promise<string> {
  requireManager(actor);
  const stripe = stripeClient();
  if (!stripe) throw new FormError("Buying credits is not set up on this server.");
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, actor.userId));
  try {
    const { url } = await startCheckout(
      stripe,
      { accountId: actor.accountId, userId: actor.userId, email: user?.email ?? "" },
      packId,
      publicBaseUrl(),
    );
    return url;
  } catch (err) {
    if (err instanceof CheckoutError) throw new FormError(err.message, "packId");
    throw err;
  }
}

/** One line of the billing history: a card purchase (with its receipt) or credits added by the operator. */
export type BillingEntry =
  | {
      kind: "purchase";
      id: string;
      at: Date;
      credits: number;
      packId: string;
      amountTotal: number;
      currency: string;
      reference: string;
    }
  | {
      kind: "grant";
      id: string;
      at: Date;
      credits: number;
      /** "bonus": the free credits of a verified sign-up; the others were added by the operator. */
      type: "bonus" | "grant" | "purchase" | "adjustment";
      description: string;
    };

/**
 * Card purchases (their receipts) and the credits the operator added (grants, purchases paid another way,
 * positive adjustments, the sign-up bonus), newest first. A card purchase's own ledger row (it carries the
 * payment event's id) is its receipt, not a second line.
 */
export async function listBillingHistory(db: Db, accountId: string, limit = 50): Promise<BillingEntry[]> {
  const [purchases, credited] = await Promise.all([
    listPurchases(db, accountId, limit),
    db
      .select()
      .from(creditLedger)
      .where(
        and(
          eq(creditLedger.accountId, accountId),
          inArray(creditLedger.type, ["grant", "purchase", "adjustment"]),
          gt(creditLedger.amount, 0),
          isNull(creditLedger.eventId),
        ),
      )
      .orderBy(desc(creditLedger.id))
      .limit(limit),
  ]);
  const entries: BillingEntry[] = [
    ...purchases.map((p) => ({
      kind: "purchase" as const,
      id: p.id,
      at: p.createdAt,
      credits: p.credits,
      packId: p.packId,
      amountTotal: p.amountTotal,
      currency: p.currency,
      reference: p.paymentIntentId ?? p.checkoutSessionId,
    })),
    ...credited.map((r) => ({
      kind: "grant" as const,
      id: String(r.id),
      at: r.createdAt,
      credits: Number(r.amount),
      type:
        r.description === SIGNUP_BONUS_DESCRIPTION
          ? ("bonus" as const)
          : (r.type as "grant" | "purchase" | "adjustment"),
      description: r.description,
    })),
  ];
  return entries.sort((a, b) => b.at.getTime() - a.at.getTime()).slice(0, limit);
}

/** The address customers may write to about buying credits while card payments are closed (OPERATOR_CONTACT_EMAIL). */
export function operatorContactEmail(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | null {
  const value = env.OPERATOR_CONTACT_EMAIL?.trim();
  return value && /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(value) ? value : null;
}
