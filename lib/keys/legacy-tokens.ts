import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { and, asc, desc, eq, isNull } from "drizzle-orm";
import type { Db, DbOrTx } from "@/lib/db/client";
import { apiKeys, legacyTokens } from "@/lib/db/schema";
import { notFound, requireUuid, validationError } from "@/lib/errors";
import type { AuthenticatedKey } from "./keys";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const TOKEN_PATTERN = /^lt_([A-Za-z0-9]{16})_[A-Za-z0-9_-]{43}$/;
const MAX_LEGACY_TOKENS = 20;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const DUMMY_HASH = hashToken("dummy-token-for-constant-time");

export interface LegacyTokenView {
  id: string;
  tokenId: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface LegacyAuth extends AuthenticatedKey {
  /** Set when the caller used a legacy token rather than the key pair. */
  legacyTokenId?: string;
  legacyTokenName?: string;
}

function view(row: typeof legacyTokens.$inferSelect): LegacyTokenView {
  return {
    id: row.id,
    tokenId: row.tokenId,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/**
 * A bearer token for the older interface, tied to the account's active key pair (whose rate limit it shares).
 * The token is returned once; only its SHA-256 is stored.
 */
export async function createLegacyToken(
  db: Db,
  accountId: string,
  input: { name: string; createdByUserId?: string | null },
): Promise<{ token: string; view: LegacyTokenView }> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 80) {
    throw validationError("A token needs a name of 1 to 80 characters.", [
      { field: "name", message: "1 to 80 characters." },
    ]);
  }
  const active = await db
    .select({ id: legacyTokens.id })
    .from(legacyTokens)
    .where(and(eq(legacyTokens.accountId, accountId), isNull(legacyTokens.revokedAt)));
  if (active.length >= MAX_LEGACY_TOKENS) {
    throw validationError(`At most ${MAX_LEGACY_TOKENS} active tokens; revoke one first.`, [
      { field: "name", message: "Too many active tokens." },
    ]);
  }
  const [key] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt), isNull(apiKeys.expiresAt)))
    .orderBy(asc(apiKeys.createdAt))
    .limit(1);
  let tokenId = "";
  for (let i = 0; i < 16; i++) tokenId += ALPHABET[randomInt(ALPHABET.length)];
  const token = `lt_${tokenId}_${randomBytes(32).toString("base64url")}`;
  const [row] = await db
    .insert(legacyTokens)
    .values({
      accountId,
      tokenId,
      tokenHash: hashToken(token),
      name,
      apiKeyId: key?.id ?? null,
      createdByUserId: input.createdByUserId ?? null,
    })
    .returning();
  return { token, view: view(row!) };
}

export async function listLegacyTokens(db: DbOrTx, accountId: string): Promise<LegacyTokenView[]> {
  const rows = await db
    .select()
    .from(legacyTokens)
    .where(eq(legacyTokens.accountId, accountId))
    .orderBy(desc(legacyTokens.createdAt));
  return rows.map(view);
}

/** Revokes a token at once (nothing caches it). Revoking a revoked token changes nothing. */
export async function revokeLegacyToken(db: Db, accountId: string, id: string): Promise<LegacyTokenView> {
  requireUuid(id, "Token");
  const [row] = await db
    .select()
    .from(legacyTokens)
    .where(and(eq(legacyTokens.id, id), eq(legacyTokens.accountId, accountId)));
  if (!row) throw notFound("Token");
  if (row.revokedAt) return view(row);
  const [updated] = await db
    .update(legacyTokens)
    .set({ revokedAt: new Date() })
    .where(eq(legacyTokens.id, id))
    .returning();
  return view(updated!);
}

/**
 * A legacy token's account, or null. One indexed read by the token's public id; the hash compared in constant
 * time. It counts against the limit of the account's active key pair (the pair it was made beside, or the one
 * that replaced it after a rotation), so the token and the pair share one window.
 */
export async function authenticateLegacyToken(db: Db, token: string): Promise<LegacyAuth | null> {
  const match = token.match(TOKEN_PATTERN);
  if (!match) return null;
  const [row] = await db
    .select({
      id: legacyTokens.id,
      accountId: legacyTokens.accountId,
      tokenHash: legacyTokens.tokenHash,
      name: legacyTokens.name,
      revokedAt: legacyTokens.revokedAt,
    })
    .from(legacyTokens)
    .where(eq(legacyTokens.tokenId, match[1]!))
    .limit(1);
  const given = Buffer.from(hashToken(token), "hex");
  const expected = Buffer.from(row?.tokenHash ?? DUMMY_HASH, "hex");
  const same = given.length === expected.length && timingSafeEqual(given, expected);
  if (!row || !same || row.revokedAt) return null;
  const [key] = await db
    .select({ id: apiKeys.id, keyId: apiKeys.keyId, rateLimitPerMinute: apiKeys.rateLimitPerMinute })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, row.accountId), isNull(apiKeys.revokedAt), isNull(apiKeys.expiresAt)))
    .orderBy(asc(apiKeys.createdAt))
    .limit(1);
  return {
    // The rate-limit bucket: the key pair's, or the token's own when the account has no active pair.
    apiKeyId: key?.id ?? row.id,
    accountId: row.accountId,
    keyId: key?.keyId ?? `lt_${match[1]}`,
    rateLimitPerMinute: key?.rateLimitPerMinute ?? null,
    legacyTokenId: row.id,
    legacyTokenName: row.name,
  };
}

export async function touchLegacyToken(db: Db, id: string): Promise<void> {
  await db.update(legacyTokens).set({ lastUsedAt: new Date() }).where(eq(legacyTokens.id, id));
}
