import { Webhook } from "standardwebhooks";

export interface SigningSecrets {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/**
 * The Standard Webhooks headers of one attempt: `webhook-signature` is `v1,<base64 HMAC-SHA256>` over
 * `id.timestamp.body` with the endpoint's secret, and, within 24 h of a rotation, a second `v1,…` with the
 * previous secret (space-separated), so a receiver holding either secret verifies it.
 */
export function signatureHeaders(
  secrets: SigningSecrets,
  messageId: string,
  body: string,
  at: Date = new Date(),
): Record<string, string> {
  const keys = [secrets.secret];
  if (secrets.previousSecret && secrets.previousSecretExpiresAt && secrets.previousSecretExpiresAt > at) {
    keys.push(secrets.previousSecret);
  }
  const signature = keys.map((k) => new Webhook(k).sign(messageId, at, body)).join(" ");
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature,
  };
}
