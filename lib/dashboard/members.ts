import { asc, eq } from "drizzle-orm";
import { canManageKeys } from "@/lib/accounts/accounts";
import type { DbOrTx } from "@/lib/db/client";
import { accounts, memberships, type Role } from "@/lib/db/schema";
import { ForbiddenError } from "./errors";

/** Who is acting and on which account; built on the server from the session and the memberships table. */
export interface Actor {
  userId: string;
  accountId: string;
  accountName: string;
  role: Role;
}

const ROLE_ORDER: Record<Role, number> = { owner: 0, admin: 1, member: 2 };

/** Every account the user belongs to, with their role, the first owned one first. */
export async function listMemberships(db: DbOrTx, userId: string) {
  const rows = await db
    .select({ accountId: memberships.accountId, role: memberships.role, name: accounts.name })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt));
  return rows.sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role]);
}

/**
 * The user's active account: the preferred one (the account switcher's choice) if they still belong to it,
 * else the first one they own, else their highest role, oldest first. Read on every request so that a
 * changed role or a removed membership takes effect at once.
 */
export async function getActor(
  db: DbOrTx,
  userId: string,
  preferredAccountId?: string | null,
): Promise<Actor | null> {
  const rows = await listMemberships(db, userId);
  const best = rows.find((r) => r.accountId === preferredAccountId) ?? rows[0];
  if (!best) return null;
  return { userId, accountId: best.accountId, accountName: best.name, role: best.role };
}

/** Throws ForbiddenError unless the actor is an owner or admin (rotate keys, manage domains, invite). */
export function requireManager(actor: Actor): void {
  if (!canManageKeys(actor.role)) throw new ForbiddenError();
}
