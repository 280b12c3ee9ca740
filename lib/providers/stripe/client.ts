// Stripe, through the official SDK. STRIPE_SECRET_KEY enables Checkout; STRIPE_WEBHOOK_SECRET (whsec_…)
// verifies the webhook; STRIPE_API_BASE_URL points the SDK at another host (tests run a local server that
// speaks Stripe's wire format).
import Stripe from "stripe";
import type { Env } from "../env";
import { ProviderError } from "../provider-error";
import { readStripeConfig } from "./config";

export { stripeConfigured } from "./config";

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

/**
 * A client for this environment, or null when Stripe is not configured. The SDK retries lost connections,
 * 409s, 429s and 5xx twice itself (with its idempotency keys, so a payment is never made twice).
 */
export function stripeClient(env: Env = process.env): Stripe | null {
  const config = readStripeConfig(env);
  if (!config) return null;
  const cacheKey = `${config.secretKey}\n${env.STRIPE_API_BASE_URL ?? ""}`;
  let client = clients.get(cacheKey);
  if (!client) {
    client = new Stripe(config.secretKey, {
      ...stripeHostOptions(env.STRIPE_API_BASE_URL),
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: "Findable" },
    });
    clients.set(cacheKey, client);
  }
  return client;
}

export type StripeErrorCode =
  | "STRIPE_AUTH_FAILED"
  | "STRIPE_RATE_LIMITED"
  | "STRIPE_INVALID_REQUEST"
  | "STRIPE_CARD_DECLINED"
  | "STRIPE_UNREACHABLE"
  | "STRIPE_UNAVAILABLE"
  | "STRIPE_SIGNATURE_INVALID";

const RETRYABLE: readonly StripeErrorCode[] = [
  "STRIPE_RATE_LIMITED",
  "STRIPE_UNREACHABLE",
  "STRIPE_UNAVAILABLE",
];

/** A failed Stripe call or a webhook signature that does not verify. */
export class StripeCallError extends ProviderError<StripeErrorCode> {
  constructor(code: StripeErrorCode, message: string, options: { status?: number } = {}) {
    super("stripe", code, message, { retryable: RETRYABLE.includes(code), ...options });
    this.name = "StripeCallError";
  }
}

/** The SDK's error (its `type` names the kind) as a StripeCallError; the message is Stripe's own. */
export function toStripeError(err: unknown): StripeCallError {
  if (err instanceof StripeCallError) return err;
  const e = err as { type?: unknown; statusCode?: unknown; message?: unknown };
  const status = typeof e?.statusCode === "number" ? e.statusCode : undefined;
  const message = typeof e?.message === "string" ? e.message.slice(0, 300) : "Stripe answered with an error.";
  const options = status !== undefined ? { status } : {};
  switch (e?.type) {
    case "StripeAuthenticationError":
    case "StripePermissionError":
      return new StripeCallError("STRIPE_AUTH_FAILED", message, options);
    case "StripeRateLimitError":
      return new StripeCallError("STRIPE_RATE_LIMITED", message, options);
    case "StripeCardError":
      return new StripeCallError("STRIPE_CARD_DECLINED", message, options);
    case "StripeInvalidRequestError":
    case "StripeIdempotencyError":
      return new StripeCallError("STRIPE_INVALID_REQUEST", message, options);
    case "StripeConnectionError":
      return new StripeCallError("STRIPE_UNREACHABLE", message, options);
    case "StripeSignatureVerificationError":
      return new StripeCallError("STRIPE_SIGNATURE_INVALID", message, options);
    default:
      return new StripeCallError("STRIPE_UNAVAILABLE", message, options);
  }
}

/**
 * Checks the `Stripe-Signature` header (HMAC-SHA256 over "t.payload", 5-minute tolerance) and parses the event.
 * Throws a StripeCallError (STRIPE_SIGNATURE_INVALID) when it does not verify.
 */
export function verifyStripeEvent(payload: string, signature: string, secret: string): Stripe.Event {
  try {
    return Stripe.webhooks.constructEvent(payload, signature, secret);
  } catch (err) {
    throw toStripeError(err);
  }
}

export type { Stripe };
