import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** The environment this module reads; callers pass `process.env` or a test's own map. */
export type Env = Readonly<Record<string, string | undefined>>;

export const DATA_ENCRYPTION_ENV = "DATA_ENCRYPTION_KEY";
const VERSION = "v1";

export class DataKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DataKeyError";
  }
}

/**
 * The 32-byte key of DATA_ENCRYPTION_KEY (64 hex characters, or base64 of 32 bytes), or null when unset.
 * A key of the wrong length is an operator's mistake worth stopping on, not a reason to store plaintext.
 */
export function readDataKey(env: Env): Buffer | null {
  const raw = env.DATA_ENCRYPTION_KEY?.trim();
  if (!raw) return null;
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, "hex") : Buffer.from(raw, "base64");
  if (key.length !== 32) {
    throw new DataKeyError(
      `${DATA_ENCRYPTION_ENV} must be 32 bytes as 64 hex characters or base64 (openssl rand -base64 32).`,
    );
  }
  return key;
}

/**
 * AES-256-GCM with a random 96-bit IV. `context` (e.g. `connection:<accountId>:google`) is bound as
 * additional authenticated data, so a ciphertext copied to another account's row does not decrypt.
 * Output: `v1.<iv>.<tag>.<ciphertext>`, each base64url.
 */
export function encryptSecret(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ct]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

/** The plaintext, or a DataKeyError when the key, the context or the ciphertext do not match. */
export function decryptSecret(key: Buffer, sealed: string, context: string): string {
  const [version, iv, tag, ct] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || ct === undefined) throw new DataKeyError("Not a sealed secret.");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new DataKeyError("The secret does not decrypt with this key (was DATA_ENCRYPTION_KEY changed?).");
  }
}
