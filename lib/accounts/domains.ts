import { randomBytes } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { domains } from "@/lib/db/schema";
import { AppError as ApiError } from "@/lib/errors";
import { normalizeHostname } from "@/lib/hostname";

/** The normalised hostname, or 400 VALIDATION_ERROR naming the `domain` field. */
function requireHostname(input: string, field = "domain"): string {
  const hostname = normalizeHostname(input);
  if (!hostname) {
    throw new ApiError("VALIDATION_ERROR", `${field} must be a hostname such as example.com.`, {
      field,
      issues: [{ field, message: "Not a valid hostname." }],
    });
  }
  return hostname;
}

export async function registerDomain(db: DbOrTx, accountId: string, input: string) {
  const hostname = requireHostname(input);
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
  const hostname = requireHostname(input);
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

const VERIFY_RECORD_PREFIX = "_findable-verify";
export const VERIFY_FILE_PATH = "/.well-known/findable-verify.txt";

/** A domain as the API shows it: its state and how to prove ownership. */
export function domainView(row: typeof domains.$inferSelect) {
  return {
    domain: row.hostname,
    verified: row.verifiedAt !== null,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    verificationMethod: (row.verificationMethod as "dns_txt" | "file" | null) ?? null,
    createdAt: row.createdAt.toISOString(),
    verification: {
      dnsTxt: { name: `${VERIFY_RECORD_PREFIX}.${row.hostname}`, value: row.verificationToken },
      file: { url: `https://${row.hostname}${VERIFY_FILE_PATH}`, content: row.verificationToken },
    },
  };
}

/** registerDomain, telling whether the domain is new on the account (201) or was there already (200). */
export async function addDomain(db: DbOrTx, accountId: string, input: string) {
  const before = normalizeHostname(input);
  const existing = before
    ? await db
        .select({ id: domains.id })
        .from(domains)
        .where(and(eq(domains.accountId, accountId), eq(domains.hostname, before)))
    : [];
  const row = await registerDomain(db, accountId, input);
  return { row, created: existing.length === 0 };
}

/** Removes a domain and (by cascade) its visits and rollups; 404 when the account has no such domain. */
export async function removeDomain(db: DbOrTx, accountId: string, input: string) {
  const row = await requireOwnDomain(db, accountId, input);
  await db.delete(domains).where(eq(domains.id, row.id));
  return { domain: row.hostname, deleted: true as const };
}

/** For the domains resource itself: a malformed name is 400, a domain not on the account is 404. */
export async function requireOwnDomain(db: DbOrTx, accountId: string, input: string) {
  return requireRegisteredDomain(db, accountId, input).catch((err: unknown) => {
    if (err instanceof ApiError && err.code === "FORBIDDEN_SCOPE") {
      throw new ApiError("NOT_FOUND", "Domain not found on this account.", { domain: err.details.domain });
    }
    throw err;
  });
}
