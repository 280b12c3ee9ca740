// The account's people and domains, managed from the dashboard: roles, removals, pending invitations and
// domain removal. Owners and admins only; the account always keeps an owner.
import { and, asc, count, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db, Tx } from "@/lib/db/client";
import { accounts, domains, invites, memberships, ROLES, type Role, users } from "@/lib/db/schema";
import { ForbiddenError, FormError } from "./errors";
import { type Actor, requireManager } from "./members";

/** Serialises changes to one account's memberships, so two owners cannot demote each other at once. */
async function lockAccount(tx: Tx, accountId: string): Promise<void> {
  await tx.execute(sql`select id from ${accounts} where ${accounts.id} = ${accountId} for update`);
}

async function findMembership(tx: Tx, accountId: string, userId: string) {
  const [row] = await tx
    .select({ role: memberships.role, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, userId)));
  if (!row) throw new FormError("This person is not a member of the account.");
  return row;
}

async function countOwners(tx: Tx, accountId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.accountId, accountId), eq(memberships.role, "owner")));
  return Number(row?.n ?? 0);
}

/** Only an owner may touch an owner (or make one); an admin manages admins and members. */
function requireRoleOver(actor: Actor, target: Role, next?: Role): void {
  requireManager(actor);
  if (actor.role !== "owner" && (target === "owner" || next === "owner")) {
    throw new ForbiddenError("Only an owner can change or remove an owner, or make someone an owner.");
  }
}

export const LAST_OWNER_MESSAGE = "The account needs at least one owner: make someone else an owner first.";

/** Changes a member's role. The last owner cannot be demoted. */
export async function changeMemberRole(db: Db, actor: Actor, userId: string, role: Role) {
  if (!ROLES.includes(role)) throw new FormError("Choose a role.", "role");
  return db.transaction(async (tx) => {
    await lockAccount(tx, actor.accountId);
    const target = await findMembership(tx, actor.accountId, userId);
    requireRoleOver(actor, target.role, role);
    if (target.role === role) return { email: target.email, role };
    if (target.role === "owner" && (await countOwners(tx, actor.accountId)) <= 1) {
      throw new FormError(LAST_OWNER_MESSAGE);
    }
    await tx
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.accountId, actor.accountId), eq(memberships.userId, userId)));
    return { email: target.email, role };
  });
}

/** Removes a member from the account (their user and other accounts stay). The last owner stays. */
export async function removeMember(db: Db, actor: Actor, userId: string) {
  return db.transaction(async (tx) => {
    await lockAccount(tx, actor.accountId);
    const target = await findMembership(tx, actor.accountId, userId);
    requireRoleOver(actor, target.role);
    if (target.role === "owner" && (await countOwners(tx, actor.accountId)) <= 1) {
      throw new FormError(LAST_OWNER_MESSAGE);
    }
    await tx
      .delete(memberships)
      .where(and(eq(memberships.accountId, actor.accountId), eq(memberships.userId, userId)));
    return { email: target.email };
  });
}

export interface PendingInvite {
  id: string;
  email: string | null;
  role: Role;
  createdAt: string;
  expiresAt: string;
  createdBy: string | null;
}

/** Invitations not yet accepted and not expired, newest first (owners and admins only). */
export async function listPendingInvites(db: Db, actor: Actor, now = new Date()): Promise<PendingInvite[]> {
  requireManager(actor);
  const rows = await db
    .select({
      id: invites.id,
      email: invites.email,
      role: invites.role,
      createdAt: invites.createdAt,
      expiresAt: invites.expiresAt,
      createdBy: users.email,
    })
    .from(invites)
    .leftJoin(users, eq(users.id, invites.createdByUserId))
    .where(
      and(eq(invites.accountId, actor.accountId), isNull(invites.acceptedAt), gt(invites.expiresAt, now)),
    )
    .orderBy(asc(invites.expiresAt));
  return rows
    .map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      expiresAt: r.expiresAt.toISOString(),
    }))
    .reverse();
}

/** Revokes a pending invitation: its link stops working at once. Only an owner revokes an owner invite. */
export async function revokeInvite(db: Db, actor: Actor, inviteId: string) {
  requireManager(actor);
  return db.transaction(async (tx) => {
    const [invite] = await tx
      .select({ role: invites.role })
      .from(invites)
      .where(
        and(eq(invites.id, inviteId), eq(invites.accountId, actor.accountId), isNull(invites.acceptedAt)),
      );
    if (!invite) throw new FormError("This invitation was already used or revoked.");
    requireRoleOver(actor, invite.role);
    await tx
      .delete(invites)
      .where(
        and(eq(invites.id, inviteId), eq(invites.accountId, actor.accountId), isNull(invites.acceptedAt)),
      );
  });
}

/**
 * Removes a registered domain and its tracking data (visits, daily bot and citation figures, page counts go
 * with it through the foreign keys). The customer confirms by typing the hostname.
 */
export async function removeDomain(db: Db, actor: Actor, hostname: string, confirmation: string) {
  requireManager(actor);
  if (confirmation.trim().toLowerCase() !== hostname) {
    throw new FormError(`Type ${hostname} to confirm.`, "confirm");
  }
  const deleted = await db
    .delete(domains)
    .where(and(eq(domains.accountId, actor.accountId), eq(domains.hostname, hostname)))
    .returning({ id: domains.id });
  if (deleted.length === 0) throw new FormError("This domain is not registered on the account.");
  return { hostname };
}
