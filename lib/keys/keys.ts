import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { and, asc, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { notFound, requireUuid, validationError } from "@/lib/errors";
import { keysChanged, lookupKey } from "./key-cache";
import { type KeyPairView, MAX_KEY_PAIRS, ROLL_WINDOW_SECONDS, type RollWindow } from "./schemas";

const DEFAULT_KEY_NAME = "Default";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const KEY_ID_PATTERN = /^sk_live_[A-Za-z0-9]{24}$/;
const SECRET_PATTERN = /^sks_[A-Za-z0-9_-]{43}$/;

export interface KeyPair {
  keyId: string;
  secret: string;
}

function generateKeyPair(): KeyPair {
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
  // A rolled pair stops at its expiry on every process at once: the cached row carries the time.
  if (!row || !match || row.revokedAt || (row.expiresAt && row.expiresAt.getTime() <= Date.now()))
    return null;
  return { apiKeyId: row.id, accountId: row.accountId, keyId, rateLimitPerMinute: row.rateLimitPerMinute };
}

/**
 * Replaces the account's active pair of that name (default "Default") with a new one at once, or creates it:
 * the pair an account is made with, and an operator's rotation. The secret is returned once, never stored.
 */
export async function rotateKeyPair(
  db: Db,
  accountId: string,
  opts: { createdByUserId?: string | null; rateLimitPerMinute?: number | null; name?: string } = {},
): Promise<KeyPair & { createdAt: Date }> {
  const name = opts.name ?? DEFAULT_KEY_NAME;
  const pair = generateKeyPair();
  const created = await db.transaction(async (tx) => {
    const [previous] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(apiKeys.accountId, accountId),
          eq(apiKeys.name, name),
          isNull(apiKeys.revokedAt),
          isNull(apiKeys.expiresAt),
        ),
      )
      .returning({ rateLimitPerMinute: apiKeys.rateLimitPerMinute });
    const [row] = await tx
      .insert(apiKeys)
      .values({
        accountId,
        name,
        keyId: pair.keyId,
        secretHash: hashSecret(pair.secret),
        createdByUserId: opts.createdByUserId ?? null,
        // A rotation keeps the pair's negotiated limit unless told otherwise.
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

type KeyRowFull = typeof apiKeys.$inferSelect;

/** A pair as its owner sees it; `defaultLimit` is the service's limit for pairs without their own. */
export function keyPairView(
  row: KeyRowFull,
  defaultLimit: number,
  replacedBy: string | null = null,
  now = Date.now(),
): KeyPairView {
  const state = row.revokedAt
    ? "revoked"
    : row.expiresAt
      ? row.expiresAt.getTime() > now
        ? "rolling"
        : "expired"
      : "active";
  return {
    id: row.id,
    name: row.name,
    keyId: row.keyId,
    state,
    rateLimitPerMinute: row.rateLimitPerMinute ?? defaultLimit,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    replacedBy,
  };
}

/** Pairs that stopped working stay listed this long, so an owner sees what a roll or revocation did. */
const LISTED_AFTER_END_DAYS = 30;

/** The account's pairs: the working ones first (by name), then those that ended in the last 30 days. */
export async function listKeyPairs(db: DbOrTx, accountId: string) {
  const successor = alias(apiKeys, "successor");
  const rows = await db
    .select({ key: apiKeys, replacedBy: successor.keyId })
    .from(apiKeys)
    .leftJoin(successor, eq(successor.id, apiKeys.replacedById))
    .where(
      and(
        eq(apiKeys.accountId, accountId),
        or(
          and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`))),
          gt(
            sql`coalesce(${apiKeys.revokedAt}, ${apiKeys.expiresAt})`,
            sql`now() - make_interval(days => ${LISTED_AFTER_END_DAYS})`,
          ),
        ),
      ),
    )
    .orderBy(desc(apiKeys.createdAt));
  const now = Date.now();
  const working = (r: (typeof rows)[number]) =>
    !r.key.revokedAt && (!r.key.expiresAt || r.key.expiresAt.getTime() > now);
  return [...rows.filter(working), ...rows.filter((r) => !working(r))];
}

/** Pairs still accepted (active or rolling) of the account, counted for the limit of MAX_KEY_PAIRS. */
async function countWorking(db: DbOrTx, accountId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.accountId, accountId),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)),
      ),
    );
  return Number(row?.n ?? 0);
}

/** Serialises changes to one account's pairs (counts and names are read, then written). */
async function lockAccountKeys(tx: DbOrTx, accountId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`api_keys:${accountId}`}, 0))`);
}

/** A new named pair beside the others; the secret is returned once. */
export async function createNamedKeyPair(
  db: Db,
  accountId: string,
  input: { name: string; createdByUserId?: string | null },
): Promise<{ row: KeyRowFull; secret: string }> {
  const pair = generateKeyPair();
  const row = await db.transaction(async (tx) => {
    await lockAccountKeys(tx, accountId);
    if ((await countWorking(tx, accountId)) >= MAX_KEY_PAIRS) {
      throw validationError(
        `An account holds at most ${MAX_KEY_PAIRS} working key pairs; revoke one first.`,
        [{ field: "name", message: "Too many key pairs." }],
        { reason: "too_many_keys", max: MAX_KEY_PAIRS },
      );
    }
    const [same] = await tx
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.accountId, accountId),
          eq(apiKeys.name, input.name),
          isNull(apiKeys.revokedAt),
          isNull(apiKeys.expiresAt),
        ),
      );
    if (same) {
      throw validationError(
        `A pair named "${input.name}" is already active; roll it, or choose another name.`,
        [{ field: "name", message: "Already in use by an active pair." }],
        { reason: "key_name_taken" },
      );
    }
    const [inserted] = await tx
      .insert(apiKeys)
      .values({
        accountId,
        name: input.name,
        keyId: pair.keyId,
        secretHash: hashSecret(pair.secret),
        createdByUserId: input.createdByUserId ?? null,
      })
      .returning();
    return inserted!;
  });
  return { row, secret: pair.secret };
}

async function requireOwnKey(db: DbOrTx, accountId: string, id: string): Promise<KeyRowFull> {
  requireUuid(id, "Key pair");
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId)))
    .for("update");
  if (!row) throw notFound("Key pair");
  return row;
}

/**
 * Rolls an active pair: a new pair of the same name and limit, and the old one kept working for `window`
 * (then refused on every process at its expiry) or revoked at once for `none`.
 */
export async function rollKeyPair(
  db: Db,
  accountId: string,
  id: string,
  input: { window: RollWindow; createdByUserId?: string | null },
): Promise<{ row: KeyRowFull; secret: string; replaced: KeyRowFull }> {
  const pair = generateKeyPair();
  const result = await db.transaction(async (tx) => {
    await lockAccountKeys(tx, accountId);
    const old = await requireOwnKey(tx, accountId, id);
    if (old.revokedAt || old.expiresAt) {
      throw validationError(
        old.revokedAt
          ? "This pair is revoked; create a new pair instead."
          : "This pair was already rolled; roll its replacement instead.",
        [{ field: "id", message: "Not an active pair." }],
        { reason: "key_not_active" },
      );
    }
    const seconds = ROLL_WINDOW_SECONDS[input.window];
    // The old pair leaves the active name first, so the new one can take it.
    const [replacedFirst] = await tx
      .update(apiKeys)
      .set(
        seconds === 0
          ? { revokedAt: sql`now()` }
          : { expiresAt: sql`now() + make_interval(secs => ${seconds})` },
      )
      .where(eq(apiKeys.id, old.id))
      .returning();
    const [row] = await tx
      .insert(apiKeys)
      .values({
        accountId,
        name: old.name,
        keyId: pair.keyId,
        secretHash: hashSecret(pair.secret),
        rateLimitPerMinute: old.rateLimitPerMinute,
        createdByUserId: input.createdByUserId ?? null,
      })
      .returning();
    const [replaced] = await tx
      .update(apiKeys)
      .set({ replacedById: row!.id })
      .where(eq(apiKeys.id, old.id))
      .returning();
    return { row: row!, replaced: replaced ?? replacedFirst! };
  });
  keysChanged();
  return { ...result, secret: pair.secret };
}

/** Revokes a pair at once, rolling or active; revoking a revoked pair changes nothing. */
export async function revokeKeyPair(db: Db, accountId: string, id: string): Promise<KeyRowFull> {
  const row = await db.transaction(async (tx) => {
    const current = await requireOwnKey(tx, accountId, id);
    if (current.revokedAt) return current;
    const [updated] = await tx
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(eq(apiKeys.id, id))
      .returning();
    return updated!;
  });
  keysChanged();
  return row;
}

/** A pair of the account by its row id or its public key id (`sk_live_…`), for the admin CLI. */
export async function findKeyPair(db: DbOrTx, accountId: string, ref: string): Promise<KeyRowFull | null> {
  const byKeyId = KEY_ID_PATTERN.test(ref);
  if (!byKeyId && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref)) return null;
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), byKeyId ? eq(apiKeys.keyId, ref) : eq(apiKeys.id, ref)));
  return row ?? null;
}

/** Sets a pair's own rate limit (operators), or back to the service's default with null. */
export async function setKeyRateLimit(
  db: Db,
  accountId: string,
  keyId: string,
  rateLimitPerMinute: number | null,
): Promise<KeyRowFull> {
  const [row] = await db
    .update(apiKeys)
    .set({ rateLimitPerMinute })
    .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.keyId, keyId)))
    .returning();
  if (!row) throw notFound("Key pair");
  keysChanged();
  return row;
}

/** The account's oldest active pair (the one the docs' examples and the admin CLI show), or null. */
export async function getActiveKey(db: DbOrTx, accountId: string) {
  const [row] = await db
    .select({
      keyId: apiKeys.keyId,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      rateLimitPerMinute: apiKeys.rateLimitPerMinute,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt), isNull(apiKeys.expiresAt)))
    .orderBy(asc(apiKeys.createdAt))
    .limit(1);
  return row ?? null;
}

export async function touchKeyLastUsed(db: Db, apiKeyId: string): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, apiKeyId));
}
