// Stripe settings, free of the SDK: capabilities, the operator page and the billing page read them without
// loading it.
import type { Env } from "../env";

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** STRIPE_API_BASE_URL, when set. */
  baseUrl?: string;
}

/** The adapter's settings, or null when this server cannot sell credits (the API key or the webhook secret is missing). */
export function readStripeConfig(env: Env = process.env): StripeConfig | null {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (!secretKey || !webhookSecret) return null;
  const baseUrl = env.STRIPE_API_BASE_URL?.trim();
  return { secretKey, webhookSecret, ...(baseUrl ? { baseUrl } : {}) };
}

/** Whether this server can sell credits: both the API key and the webhook secret are set. */
export function stripeConfigured(env: Env = process.env): boolean {
  return readStripeConfig(env) !== null;
}
