import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { accounts, memberships, users } from "@/lib/db/schema";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An account by id, or by its owner's email (the first account that email owns). */
export async function findAccount(db: DbOrTx, ref: string) {
  if (UUID.test(ref)) {
    const [row] = await db.select().from(accounts).where(eq(accounts.id, ref));
    return row ?? null;
  }
  const [row] = await db
    .select({ account: accounts })
    .from(accounts)
    .innerJoin(memberships, eq(memberships.accountId, accounts.id))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(sql`lower(${users.email}) = lower(${ref}) and ${memberships.role} = 'owner'`)
    .orderBy(accounts.createdAt)
    .limit(1);
  return row?.account ?? null;
}
