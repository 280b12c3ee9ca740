import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { users } from "@/lib/db/schema";

/**
 * Flags (or unflags) the user with this address as an operator of the service: they see the dashboard's
 * operator page. Null when no user has the address.
 */
export async function setOperator(
  db: DbOrTx,
  email: string,
  operator: boolean,
): Promise<{ userId: string; email: string; operator: boolean } | null> {
  const [row] = await db
    .update(users)
    .set({ isOperator: operator })
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .returning({ userId: users.id, email: users.email, operator: users.isOperator });
  return row ?? null;
}

export async function isOperator(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db.select({ operator: users.isOperator }).from(users).where(eq(users.id, userId));
  return row?.operator === true;
}
