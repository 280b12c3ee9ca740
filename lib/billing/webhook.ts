// POST /api/webhooks/stripe: Stripe's signed events. A paid `checkout.session.completed` (or the
// `checkout.session.async_payment_succeeded` of a delayed payment method) credits its pack, once per event.
import type Stripe from "stripe";
import { getAccount } from "@/lib/accounts/accounts";
import type { Db } from "@/lib/db/client";
import type { Env } from "@/lib/providers/env";
import { verifyStripeEvent } from "@/lib/providers/stripe/client";
import { findPack, PACK_CURRENCY } from "./packs";
import { applyPurchase } from "./purchases";

export interface WebhookOutcome {
  status: number;
  body: { received: boolean; result?: string; error?: string };
}

const ok = (result: string): WebhookOutcome => ({ status: 200, body: { received: true, result } });
const refused = (status: number, error: string): WebhookOutcome => ({
  status,
  body: { received: false, error },
});

/**
 * Verifies the `Stripe-Signature` header against STRIPE_WEBHOOK_SECRET, then applies the event. A bad
 * signature is 400 (Stripe shows it and retries); an event this service does not act on is 200 with a reason,
 * so Stripe does not retry what can never succeed.
 */
export async function handleStripeWebhook(
  db: Db,
  payload: string,
  signature: string | null,
  env: Env = process.env,
): Promise<WebhookOutcome> {
  // The secret alone suffices here: a server that stopped selling (no API key) still applies paid sessions.
  const secret = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (!secret)
    return refused(503, "Stripe webhooks are not configured on this server (STRIPE_WEBHOOK_SECRET).");
  if (!signature) return refused(400, "Missing Stripe-Signature header.");
  let event: Stripe.Event;
  try {
    event = verifyStripeEvent(payload, signature, secret);
  } catch {
    return refused(400, "The Stripe-Signature header does not match this payload.");
  }
  if (
    event.type !== "checkout.session.completed" &&
    event.type !== "checkout.session.async_payment_succeeded"
  ) {
    return ok(`ignored: ${event.type}`);
  }
  const session = event.data.object;
  if (session.mode !== "payment") return ok("ignored: not a one-time payment");
  // A delayed payment method completes the session unpaid; its async_payment_succeeded event pays.
  if (session.payment_status !== "paid") return ok(`ignored: payment ${session.payment_status}`);
  const accountId = session.metadata?.accountId ?? session.client_reference_id;
  const pack = findPack(session.metadata?.packId ?? "");
  if (!accountId || !pack) return ok("ignored: not a credit pack purchase of this service");
  if (session.currency !== PACK_CURRENCY || session.amount_total !== pack.price) {
    console.error(
      `[billing] ${event.id}: paid ${session.amount_total} ${session.currency} for pack ${pack.id} (${pack.price} ${PACK_CURRENCY}); not credited`,
    );
    return ok("ignored: amount does not match the pack's price");
  }
  if (!/^[0-9a-f-]{36}$/i.test(accountId) || !(await getAccount(db, accountId))) {
    return ok("ignored: unknown account");
  }
  const applied = await applyPurchase(db, {
    accountId,
    eventId: event.id,
    checkoutSessionId: session.id,
    paymentIntentId:
      typeof session.payment_intent === "string"
        ? session.payment_intent
        : (session.payment_intent?.id ?? null),
    packId: pack.id,
    packName: pack.name,
    credits: pack.credits,
    amountTotal: session.amount_total,
    currency: session.currency,
    customerEmail: session.customer_details?.email ?? session.customer_email ?? null,
  });
  return ok(applied.applied ? "credited" : "duplicate: already applied");
}
