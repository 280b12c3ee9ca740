import { and, eq, inArray, sql } from "drizzle-orm";
import { addCredits, SIGNUP_BONUS } from "@/lib/credits/credits";
import type { Db, DbOrTx, Tx } from "@/lib/db/client";
import { accounts, memberships, type Role, users } from "@/lib/db/schema";

export interface CreateAccountInput {
  ownerEmail: string;
  name?: string;
  passwordHash?: string | null;
  /** Credits granted on top of the sign-up bonus (an operator grant). */
  extraGrant?: number;
  isDemo?: boolean;
  /**
   * The sign-up bonus waits until the owner verifies their address (sign-up with a password): the account
   * starts at 0 and `grantPendingSignupBonus` adds the 100 credits once, on verification.
   */
  bonusAwaitsVerification?: boolean;
  /** The owner's address is proven (a sign-up completed from its emailed link): the user starts verified. */
  emailVerified?: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(email: string): boolean {
  return email.length <= 254 && EMAIL.test(email);
}

/**
 * A new account with its owner and the 100 free credits as a `grant` ledger row, in one transaction.
 * An existing user (same email, any case) becomes the owner of the new account.
 */
export async function createAccount(db: Db, input: CreateAccountInput) {
  const email = input.ownerEmail.trim();
  if (!isValidEmail(email)) throw new Error(`not an email address: ${input.ownerEmail}`);
  if (input.extraGrant !== undefined && (!Number.isInteger(input.extraGrant) || input.extraGrant < 0)) {
    throw new Error("extra grant must be a non-negative integer");
  }
  return db.transaction((tx) => createAccountIn(tx, { ...input, ownerEmail: email }));
}

/** createAccount inside a transaction the caller holds (one that also uses up a sign-up link). */
export async function createAccountIn(tx: Tx, input: CreateAccountInput) {
  const email = input.ownerEmail.trim();
  const [existing] = await tx.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
  const [created] = existing
    ? [existing]
    : await tx
        .insert(users)
        .values({
          email,
          passwordHash: input.passwordHash ?? null,
          name: input.name ?? null,
          emailVerified: input.emailVerified ? new Date() : null,
        })
        .returning();
  const user = created!;
  const [account] = await tx
    .insert(accounts)
    .values({
      name: input.name ?? email,
      isDemo: input.isDemo ?? false,
      signupBonusPending: input.bonusAwaitsVerification ?? false,
    })
    .returning();
  await tx.insert(memberships).values({ accountId: account!.id, userId: user.id, role: "owner" });
  if (!input.bonusAwaitsVerification) {
    await addCredits(tx, account!.id, SIGNUP_BONUS, "grant", SIGNUP_BONUS_DESCRIPTION);
  }
  if (input.extraGrant) await addCredits(tx, account!.id, input.extraGrant, "grant", "Operator grant");
  const [fresh] = await tx.select().from(accounts).where(eq(accounts.id, account!.id));
  return { account: fresh!, user };
}

export const SIGNUP_BONUS_DESCRIPTION = `Sign-up bonus: ${SIGNUP_BONUS} free credits`;

/**
 * Grants the waiting sign-up bonus of every account this user owns, once: clearing the pending flag is the
 * guard (a second verification finds nothing to clear). Call in the transaction that verifies the address.
 * Returns the credits granted.
 */
export async function grantPendingSignupBonus(tx: Tx, userId: string): Promise<number> {
  const cleared = await tx
    .update(accounts)
    .set({ signupBonusPending: false })
    .where(
      and(
        eq(accounts.signupBonusPending, true),
        inArray(
          accounts.id,
          tx
            .select({ id: memberships.accountId })
            .from(memberships)
            .where(and(eq(memberships.userId, userId), eq(memberships.role, "owner"))),
        ),
      ),
    )
    .returning({ id: accounts.id });
  for (const { id } of cleared) await addCredits(tx, id, SIGNUP_BONUS, "grant", SIGNUP_BONUS_DESCRIPTION);
  return cleared.length * SIGNUP_BONUS;
}

export async function getAccount(db: DbOrTx, accountId: string) {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  return row ?? null;
}

export async function getMembers(db: DbOrTx, accountId: string) {
  return db
    .select({ userId: users.id, email: users.email, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.accountId, accountId));
}

export const canManageKeys = (role: Role) => role === "owner" || role === "admin";
