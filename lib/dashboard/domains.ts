import { registerDomain } from "@/lib/accounts/domains";
import type { Db } from "@/lib/db/client";
import { AppError as ApiError } from "@/lib/errors";
import { FormError } from "./errors";
import { type Actor, requireManager } from "./members";

/** Registers a domain on the actor's account (owner or admin only). */
export async function addDomainAs(db: Db, actor: Actor, input: string) {
  requireManager(actor);
  try {
    return await registerDomain(db, actor.accountId, input);
  } catch (err) {
    if (err instanceof ApiError && err.code === "VALIDATION_ERROR") {
      throw new FormError("Enter a hostname such as example.com.", "domain");
    }
    throw err;
  }
}

/** Checks the DNS TXT record and the /.well-known/ file for the domain's token (owner or admin only). */
export async function verifyDomainAs(db: Db, actor: Actor, hostname: string) {
  requireManager(actor);
  const { verifyDomain } = await import("@/lib/accounts/domain-verification");
  return verifyDomain(db, actor.accountId, hostname);
}
