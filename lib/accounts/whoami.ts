import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { accounts, domains, memberships, users } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

export interface CallerToken {
  kind: "legacy_token" | "key_pair";
  id: string;
  name: string | null;
}

/**
 * GET /api/auth/me: the account behind a bearer token (id, name, credit balance), its owner, and what the token
 * may reach: the whole account — its data endpoints for the registered domains, its webhooks, its credits.
 */
export async function describeCaller(db: DbOrTx, accountId: string, token: CallerToken) {
  const [account] = await db
    .select({ id: accounts.id, name: accounts.name, creditBalance: accounts.creditBalance })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!account) throw notFound("Account");
  const [owner] = await db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.accountId, accountId), eq(memberships.role, "owner")))
    .orderBy(memberships.createdAt)
    .limit(1);
  const registered = await db
    .select({ hostname: domains.hostname })
    .from(domains)
    .where(eq(domains.accountId, accountId))
    .orderBy(domains.hostname);
  return {
    account,
    owner: owner ?? null,
    token,
    scope: {
      type: "account" as const,
      accountId: account.id,
      domains: registered.map((d) => d.hostname),
      permissions: ["tracking:read", "tracking:write", "analytics:read", "webhooks:manage"],
    },
  };
}
