import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import { isValidEmail } from "@/lib/accounts/accounts";
import type { Db } from "@/lib/db/client";
import { accounts, invites, memberships, ROLES, type Role, users } from "@/lib/db/schema";
import { FormError } from "./errors";
import { type Actor, requireManager } from "./members";

const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The invitation names another address than the signed-in user's. */
export class InviteForAnotherAddress extends FormError {
  constructor() {
    super(
      "This invitation was sent to another email address. Sign in with the invited address to accept it, or ask the account owner for an invitation to yours.",
    );
    this.name = "InviteForAnotherAddress";
  }
}

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Whether the user may accept an invitation addressed to `invited` (null: a link for anyone). */
export async function inviteIsFor(db: Db, userId: string, invited: string | null): Promise<boolean> {
  if (!invited) return true;
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return Boolean(user && sameAddress(user.email, invited));
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * An invite link token for a new member (owner or admin only). Only its hash is stored; the caller shows the
 * link once. Only an owner may invite another owner.
 */
export async function createInvite(
  db: Db,
  actor: Actor,
  input: { email?: string | null; role: Role },
): Promise<{ token: string; expiresAt: Date }> {
  requireManager(actor);
  if (!ROLES.includes(input.role)) throw new FormError("Choose a role.", "role");
  if (input.role === "owner" && actor.role !== "owner") {
    throw new FormError("Only an owner can invite another owner.", "role");
  }
  const email = input.email?.trim() || null;
  if (email && !isValidEmail(email)) throw new FormError("Enter a valid email address.", "email");
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + INVITE_TTL_MS);
  await db.insert(invites).values({
    accountId: actor.accountId,
    email,
    role: input.role,
    tokenHash: hashToken(token),
    createdByUserId: actor.userId,
    expiresAt,
  });
  return { token, expiresAt };
}

/** The open invite for a token (not expired, not used), with its account's name; null otherwise. */
export async function findOpenInvite(db: Db, token: string) {
  const [row] = await db
    .select({ invite: invites, accountName: accounts.name })
    .from(invites)
    .innerJoin(accounts, eq(accounts.id, invites.accountId))
    .where(
      and(
        eq(invites.tokenHash, hashToken(token)),
        isNull(invites.acceptedAt),
        gt(invites.expiresAt, new Date()),
      ),
    );
  return row ?? null;
}

/**
 * Accepts an invite for a signed-in user: marks it used and adds the membership with the invite's role,
 * in one transaction. An expired, used or unknown token is refused; an existing member keeps their role.
 */
export async function acceptInvite(db: Db, userId: string, token: string) {
  return db.transaction(async (tx) => {
    // An invitation sent to an address is for that address only: a forwarded or leaked link does not let
    // someone else in. A link made without an address is for whoever the owner gives it to.
    const [open] = await tx
      .select({ email: invites.email })
      .from(invites)
      .where(
        and(
          eq(invites.tokenHash, hashToken(token)),
          isNull(invites.acceptedAt),
          gt(invites.expiresAt, new Date()),
        ),
      );
    if (open?.email) {
      const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
      if (!user || !sameAddress(user.email, open.email)) throw new InviteForAnotherAddress();
    }
    const [invite] = await tx
      .update(invites)
      .set({ acceptedAt: new Date(), acceptedByUserId: userId })
      .where(
        and(
          eq(invites.tokenHash, hashToken(token)),
          isNull(invites.acceptedAt),
          gt(invites.expiresAt, new Date()),
        ),
      )
      .returning();
    if (!invite) throw new FormError("This invite link has expired or was already used.");
    await tx
      .insert(memberships)
      .values({ accountId: invite.accountId, userId, role: invite.role })
      .onConflictDoNothing();
    return { accountId: invite.accountId, role: invite.role };
  });
}
