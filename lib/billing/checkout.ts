// Buying a credit pack: a Stripe Checkout Session in payment mode, priced from the pack list. Nothing is
// credited here; the signed `checkout.session.completed` webhook does that (lib/billing/webhook.ts).
import type Stripe from "stripe";
import { toStripeError } from "@/lib/providers/stripe/client";
import { findPack, PACK_CURRENCY } from "./packs";

export class CheckoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckoutError";
  }
}

export interface CheckoutBuyer {
  accountId: string;
  userId: string;
  email: string;
}

/**
 * Creates the Checkout Session for one pack and returns the URL to send the buyer to. The account, pack and
 * credits travel in the session's metadata; the webhook re-reads the pack and checks the amount paid.
 * `baseUrl` is the public origin the buyer returns to (PUBLIC_BASE_URL).
 */
export async function startCheckout(
  stripe: Stripe,
  buyer: CheckoutBuyer,
  packId: string,
  baseUrl: string,
): Promise<{ sessionId: string; url: string }> {
  const pack = findPack(packId);
  if (!pack) throw new CheckoutError("Choose one of the credit packs.");
  const billing = `${baseUrl.replace(/\/+$/, "")}/dashboard/billing`;
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.create({
      mode: "payment",
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: PACK_CURRENCY,
            unit_amount: pack.price,
            product_data: { name: `${pack.name}: ${pack.credits.toLocaleString("en-US")} credits` },
          },
        },
      ],
      client_reference_id: buyer.accountId,
      customer_email: buyer.email,
      metadata: {
        accountId: buyer.accountId,
        packId: pack.id,
        credits: String(pack.credits),
        userId: buyer.userId,
      },
      success_url: `${billing}?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${billing}?checkout=cancelled`,
    });
  } catch (err) {
    const error = toStripeError(err);
    console.error(
      `[billing] checkout session for ${buyer.accountId} failed (${error.code}): ${error.message}`,
    );
    throw new CheckoutError(
      "The payment page could not be opened. Nothing was charged; try again in a minute.",
    );
  }
  if (!session.url)
    throw new CheckoutError("The payment provider returned no payment page. Nothing was charged.");
  return { sessionId: session.id, url: session.url };
}
