import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { accounts, users } from "@/lib/db/schema";

/** The address to verify while the active account's sign-up bonus waits for it; null otherwise. */
export async function pendingVerification(
  db: DbOrTx,
  userId: string,
  accountId: string,
): Promise<{ email: string } | null> {
  const [user] = await db
    .select({ email: users.email, verified: users.emailVerified })
    .from(users)
    .where(eq(users.id, userId));
  if (!user || user.verified) return null;
  const [account] = await db
    .select({ pending: accounts.signupBonusPending })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return account?.pending ? { email: user.email } : null;
}
