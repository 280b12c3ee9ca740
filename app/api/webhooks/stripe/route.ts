import { handleStripeWebhook } from "@/lib/billing/webhook";
import { getDb } from "@/lib/db/client";

// The signature covers the exact bytes, so the body is read as text, never re-serialised.
const MAX_BODY = 512 * 1024;

// POST /api/webhooks/stripe: Stripe's signed events (Checkout payments credit their pack once).
export async function POST(req: Request): Promise<Response> {
  const payload = await req.text();
  if (payload.length > MAX_BODY)
    return Response.json({ received: false, error: "Payload too large." }, { status: 413 });
  const outcome = await handleStripeWebhook(await getDb(), payload, req.headers.get("stripe-signature"));
  return Response.json(outcome.body, { status: outcome.status });
}
