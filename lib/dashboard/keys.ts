import type { Db } from "@/lib/db/client";
import { rotateKeyPair } from "@/lib/keys/keys";
import { type Actor, requireManager } from "./members";

/** Rotates the account's key pair for an owner or admin; the new secret is returned once. */
export async function rotateKeyAs(db: Db, actor: Actor) {
  requireManager(actor);
  return rotateKeyPair(db, actor.accountId, { createdByUserId: actor.userId });
}
