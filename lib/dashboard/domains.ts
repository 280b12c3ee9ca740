import { registerDomain } from "@/lib/accounts/domains";
import type { Db } from "@/lib/db/client";
import { AppError as ApiError } from "@/lib/errors";
import { normalizeHostname } from "@/lib/hostname";
import { FormError } from "./errors";
import { type Actor, requireManager } from "./members";

/**
 * The domain a customer meant by what they pasted: a URL with or without its scheme
 * ("www.shop.example/pricing", "https://www.shop.example/"), any case, its `www.` dropped (tracking counts
 * the www. twin of a registered domain anyway). Null when it names no domain.
 */
export function domainFromPaste(input: string): string | null {
  let value = input.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value) && /[/?#]/.test(value)) value = `https://${value}`;
  const host = normalizeHostname(value);
  if (!host) return null;
  const bare = host.startsWith("www.") ? host.slice(4) : host;
  return bare.includes(".") ? bare : host;
}

/** Registers a domain on the actor's account (owner or admin only), from what the customer pasted. */
export async function addDomainAs(db: Db, actor: Actor, input: string) {
  requireManager(actor);
  const hostname = domainFromPaste(input);
  if (!hostname) throw new FormError("Enter a hostname such as example.com.", "domain");
  try {
    return await registerDomain(db, actor.accountId, hostname);
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
