// Webhook signing secrets at rest. They must be readable to sign, so they are sealed with the data key
// (AES-256-GCM, bound to the account) like connection credentials. Rows written before sealing, or on a
// development server without a key, hold the `whsec_…` text itself; such a row still signs, and is sealed in
// place the first time it is used on a server that has the key.
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { webhookEndpoints } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import {
  DATA_ENCRYPTION_ENV,
  DataKeyError,
  decryptSecret,
  type Env,
  encryptSecret,
  readDataKey,
} from "@/lib/secrets/data-encryption";

const context = (accountId: string) => `webhook:${accountId}`;

/** A stored value that is the secret itself rather than its sealed form. */
export const isPlainSecret = (stored: string) => stored.startsWith("whsec_");

const isDevelopment = (env: Env) => env.NODE_ENV !== "production";

let warned = false;
function warnPlaintext(): void {
  if (warned) return;
  warned = true;
  console.warn(
    `[webhooks] ${DATA_ENCRYPTION_ENV} is not set: webhook signing secrets are stored unencrypted. Allowed only outside production; set it before going live.`,
  );
}

/** The data key, or null where plaintext is allowed (development); refuses in production without one. */
function keyFor(env: Env): Buffer | null {
  let key: Buffer | null;
  try {
    key = readDataKey(env);
  } catch (err) {
    if (err instanceof DataKeyError) {
      console.error(`[webhooks] ${err.message}`);
      throw unavailable();
    }
    throw err;
  }
  if (key) return key;
  if (isDevelopment(env)) {
    warnPlaintext();
    return null;
  }
  console.error(`[webhooks] ${DATA_ENCRYPTION_ENV} is not set: webhook signing secrets cannot be stored.`);
  throw unavailable();
}

// The customer learns that the server is not ready, not how to configure it (the log tells the operator).
const unavailable = () =>
  new AppError(
    "VALIDATION_ERROR",
    "Webhook signing secrets cannot be stored on this server yet: its encryption key is not configured. Contact support.",
    { reason: "data_encryption_key_missing" },
  );

/** What to store for a new secret: sealed, or (development without a key) the secret itself. */
export function sealSigningSecret(env: Env, accountId: string, secret: string): string {
  const key = keyFor(env);
  return key ? encryptSecret(key, secret, context(accountId)) : secret;
}

/** The secret of a stored value, sealed or plain. Throws DataKeyError when a sealed value cannot be opened. */
export function openSigningSecret(env: Env, accountId: string, stored: string): string {
  if (isPlainSecret(stored)) return stored;
  const key = readDataKey(env);
  if (!key)
    throw new DataKeyError(`${DATA_ENCRYPTION_ENV} is not set; a sealed signing secret cannot be read.`);
  return decryptSecret(key, stored, context(accountId));
}

/**
 * Seals an endpoint's plain secrets in place when this server has the key (a no-op otherwise). Conditional on
 * the stored values being unchanged, so a rotation that raced it wins.
 */
export async function sealPlainSecrets(
  db: DbOrTx,
  env: Env,
  row: { id: string; accountId: string; secret: string; previousSecret: string | null },
): Promise<void> {
  const plainCurrent = isPlainSecret(row.secret);
  const plainPrevious = row.previousSecret !== null && isPlainSecret(row.previousSecret);
  if (!plainCurrent && !plainPrevious) return;
  const key = readDataKey(env);
  if (!key) return;
  const seal = (s: string) => (isPlainSecret(s) ? encryptSecret(key, s, context(row.accountId)) : s);
  await db
    .update(webhookEndpoints)
    .set({
      secret: seal(row.secret),
      ...(row.previousSecret !== null ? { previousSecret: seal(row.previousSecret) } : {}),
    })
    .where(and(eq(webhookEndpoints.id, row.id), eq(webhookEndpoints.secret, row.secret)));
}
