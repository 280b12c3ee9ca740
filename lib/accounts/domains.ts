import { randomBytes } from "node:crypto";
import { domainToASCII } from "node:url";
import { and, asc, eq } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import type { DbOrTx } from "@/lib/db/client";
import { domains } from "@/lib/db/schema";

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Normalises a customer-supplied domain to its ASCII hostname, or returns null.
 * Accepts "Example.com", "example.com." and a pasted URL ("https://example.com/x"); refuses IPs and bare words.
 */
export function normalizeHostname(input: string): string | null {
  let value = input.trim().toLowerCase();
  if (!value || value.length > 2048) return null;
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(value)) {
    try {
      value = new URL(value).hostname;
    } catch {
      return null;
    }
  }
  value = value.replace(/\.$/, "");
  const ascii = domainToASCII(value);
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split(".");
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  // A numeric top-level label means an IP address, not a domain.
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return null;
  return ascii;
}

export async function registerDomain(db: DbOrTx, accountId: string, input: string) {
  const hostname = normalizeHostname(input);
  if (!hostname) {
    throw new ApiError("VALIDATION_ERROR", "domain must be a hostname such as example.com.", {
      field: "domain",
      issues: [{ field: "domain", message: "Not a valid hostname." }],
    });
  }
  const [row] = await db
    .insert(domains)
    .values({ accountId, hostname, verificationToken: `aeo-verify-${randomBytes(16).toString("hex")}` })
    .onConflictDoNothing()
    .returning();
  if (row) return row;
  const [existing] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.accountId, accountId), eq(domains.hostname, hostname)));
  return existing!;
}

export async function listDomains(db: DbOrTx, accountId: string) {
  return db.select().from(domains).where(eq(domains.accountId, accountId)).orderBy(asc(domains.hostname));
}

/** The registered domain row, or 403 FORBIDDEN_SCOPE: data endpoints only serve the account's domains. */
export async function requireRegisteredDomain(db: DbOrTx, accountId: string, input: string) {
  const hostname = normalizeHostname(input);
  if (!hostname) {
    throw new ApiError("VALIDATION_ERROR", "domain must be a hostname such as example.com.", {
      field: "domain",
      issues: [{ field: "domain", message: "Not a valid hostname." }],
    });
  }
  const [row] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.accountId, accountId), eq(domains.hostname, hostname)));
  if (!row) {
    throw new ApiError("FORBIDDEN_SCOPE", `The domain ${hostname} is not registered on this account.`, {
      domain: hostname,
    });
  }
  return row;
}
