import { DEFAULT_RATE_LIMIT } from "@/lib/api/rate-limit";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import {
  createNamedKeyPair,
  keyPairView,
  listKeyPairs,
  revokeKeyPair,
  rollKeyPair,
  rotateKeyPair,
} from "@/lib/keys/keys";
import type { KeyPairView, RollWindow } from "@/lib/keys/schemas";
import { FormError } from "./errors";
import { type Actor, requireManager } from "./members";

/** A refusal of the keys service (a taken name, too many pairs, a pair not the account's) as a form error. */
async function asForm<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) {
      throw new FormError(err.message, typeof err.details.field === "string" ? err.details.field : undefined);
    }
    throw err;
  }
}

/** Rotates the account's "Default" pair at once for an owner or admin; the new secret is returned once. */
export async function rotateKeyAs(db: Db, actor: Actor) {
  requireManager(actor);
  return rotateKeyPair(db, actor.accountId, { createdByUserId: actor.userId });
}

/** The account's key pairs as the keys page shows them (any member may see them; secrets never). */
export async function keyPairsFor(db: Db, actor: Actor): Promise<KeyPairView[]> {
  return (await listKeyPairs(db, actor.accountId)).map((r) =>
    keyPairView(r.key, DEFAULT_RATE_LIMIT, r.replacedBy),
  );
}

export async function createKeyPairAs(db: Db, actor: Actor, name: string) {
  requireManager(actor);
  const { row, secret } = await asForm(() =>
    createNamedKeyPair(db, actor.accountId, { name, createdByUserId: actor.userId }),
  );
  return { keyId: row.keyId, secret };
}

export async function rollKeyPairAs(db: Db, actor: Actor, id: string, window: RollWindow) {
  requireManager(actor);
  const { row, secret } = await asForm(() =>
    rollKeyPair(db, actor.accountId, id, { window, createdByUserId: actor.userId }),
  );
  return { keyId: row.keyId, secret };
}

export async function revokeKeyPairAs(db: Db, actor: Actor, id: string) {
  requireManager(actor);
  await asForm(() => revokeKeyPair(db, actor.accountId, id));
}
