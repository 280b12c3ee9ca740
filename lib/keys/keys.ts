import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Db, DbOrTx } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { keysChanged, lookupKey } from "./key-cache";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const KEY_ID_PATTERN = /^sk_live_[A-Za-z0-9]{24}$/;
const SECRET_PATTERN = /^sks_[A-Za-z0-9_-]{43}$/;

export interface KeyPair {
  keyId: string;
  secret: string;
}

export function generateKeyPair(): KeyPair {
  let id = "";
  for (let i = 0; i < 24; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return { keyId: `sk_live_${id}`, secret: `sks_${randomBytes(32).toString("base64url")}` };
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

// Compared against when the key id is unknown, so both paths cost one hash and one comparison.
const DUMMY_HASH = hashSecret("dummy-secret-for-constant-time");

export interface AuthenticatedKey {
  apiKeyId: string;
  accountId: string;
  keyId: string;
  rateLimitPerMinute: number | null;
}

/**
 * The key row from this process's key cache (lib/keys/key-cache.ts: at most 10 s old, emptied within about a
 * second of any revocation on any instance); the secret's hash is compared in constant time.
 */
export async function authenticateKey(
  db: Db,
  keyId: string,
  secret: string,
): Promise<AuthenticatedKey | null> {
  if (!KEY_ID_PATTERN.test(keyId) || !SECRET_PATTERN.test(secret)) return null;
  const row = await lookupKey(db, keyId);
  const given = Buffer.from(hashSecret(secret), "hex");
  const expected = Buffer.from(row?.secretHash ?? DUMMY_HASH, "hex");
  const match = given.length === expected.length && timingSafeEqual(given, expected);
  if (!row || !match || row.revokedAt) return null;
  return { apiKeyId: row.id, accountId: row.accountId, keyId, rateLimitPerMinute: row.rateLimitPerMinute };
}

/**
 * Revokes the account's active pair (if any) and creates a new one, in one transaction.
 * The secret is returned once and never stored.
 */
export async function rotateKeyPair(
  db: Db,
  accountId: string,
  opts: { createdByUserId?: string | null; rateLimitPerMinute?: number | null } = {},
): Promise<KeyPair & { createdAt: Date }> {
  const pair = generateKeyPair();
  const created = await db.transaction(async (tx) => {
    const [previous] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
      .returning({ rateLimitPerMinute: apiKeys.rateLimitPerMinute });
    const [row] = await tx
      .insert(apiKeys)
      .values({
        accountId,
        keyId: pair.keyId,
        secretHash: hashSecret(pair.secret),
        createdByUserId: opts.createdByUserId ?? null,
        // A rotation keeps the account's negotiated limit unless told otherwise.
        rateLimitPerMinute:
          opts.rateLimitPerMinute !== undefined
            ? opts.rateLimitPerMinute
            : (previous?.rateLimitPerMinute ?? null),
      })
      .returning({ createdAt: apiKeys.createdAt });
    return row!;
  });
  // Other processes hear of it through the api_keys trigger (NOTIFY and the version counter).
  keysChanged();
  return { ...pair, createdAt: created.createdAt };
}

export async function getActiveKey(db: DbOrTx, accountId: string) {
  const [row] = await db
    .select({
      keyId: apiKeys.keyId,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      rateLimitPerMinute: apiKeys.rateLimitPerMinute,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row ?? null;
}

export async function touchKeyLastUsed(db: Db, apiKeyId: string): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, apiKeyId));
}
