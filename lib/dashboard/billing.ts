import { eq } from "drizzle-orm";
import { CheckoutError, startCheckout } from "@/lib/billing/checkout";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
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
