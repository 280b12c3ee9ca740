// Stripe, through the official SDK. STRIPE_SECRET_KEY enables Checkout; STRIPE_WEBHOOK_SECRET (whsec_…)
// verifies the webhook; STRIPE_API_BASE_URL points the SDK at another host (tests run a local server that
// speaks Stripe's wire format).
import Stripe from "stripe";

export interface StripeEnv {
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_BASE_URL?: string;
}

/** Whether this server can sell credits: both the API key and the webhook secret are set. */
export function stripeConfigured(env: StripeEnv = process.env as StripeEnv): boolean {
  return Boolean(env.STRIPE_SECRET_KEY?.trim() && env.STRIPE_WEBHOOK_SECRET?.trim());
}

/** The SDK's host, port and protocol from STRIPE_API_BASE_URL (default: api.stripe.com over https). */
export function stripeHostOptions(
  baseUrl: string | undefined,
): Pick<Stripe.StripeConfig, "host" | "port" | "protocol"> {
  if (!baseUrl?.trim()) return {};
  const url = new URL(baseUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port || (protocol === "http" ? 80 : 443), protocol };
}

const clients = new Map<string, Stripe>();

/** A client for this environment, or null when Stripe is not configured. */
export function stripeClient(env: StripeEnv = process.env as StripeEnv): Stripe | null {
  const key = env.STRIPE_SECRET_KEY?.trim();
  if (!key || !stripeConfigured(env)) return null;
  const cacheKey = `${key}\n${env.STRIPE_API_BASE_URL ?? ""}`;
  let client = clients.get(cacheKey);
  if (!client) {
    client = new Stripe(key, {
      ...stripeHostOptions(env.STRIPE_API_BASE_URL),
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: "Findable" },
    });
    clients.set(cacheKey, client);
  }
  return client;
}

/** Checks the `Stripe-Signature` header (HMAC-SHA256 over "t.payload", 5-minute tolerance) and parses the event. */
export function verifyStripeEvent(payload: string, signature: string, secret: string): Stripe.Event {
  return Stripe.webhooks.constructEvent(payload, signature, secret);
}

export type { Stripe };
