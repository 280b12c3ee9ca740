// Sessions are JWTs, which the server cannot revoke one by one. Each user has a session version, embedded
// in the token at sign-in and compared on every request: bumping it (sign-out, password change) ends every
// session of that user at once, on every device, and an old cookie stops working.
import { eq, sql } from "drizzle-orm";
import type { JWT } from "next-auth/jwt";
import type { DbOrTx } from "@/lib/db/client";
import { users } from "@/lib/db/schema";

/** The user's current session version, or null when the user no longer exists. */
async function readSessionVersion(db: DbOrTx, userId: string): Promise<number | null> {
  const [row] = await db.select({ version: users.sessionVersion }).from(users).where(eq(users.id, userId));
  return row ? row.version : null;
}

/** Ends every session of the user (the tokens they hold carry an older version from now on). */
export async function endAllSessions(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId));
}

/**
 * next-auth's `jwt` callback: at sign-in, stamps the user's session version into the token; on every
 * later request, refuses (null: next-auth clears the cookie) a token whose version is behind. A token
 * minted before versions existed counts as version 0.
 */
export function sessionVersionCallback(db: DbOrTx) {
  return async ({ token, user }: { token: JWT; user?: { id?: string } }): Promise<JWT | null> => {
    if (user?.id) {
      const version = await readSessionVersion(db, user.id);
      return version === null ? null : { ...token, sv: version };
    }
    if (!token.sub) return token;
    const current = await readSessionVersion(db, token.sub);
    const held = typeof token.sv === "number" ? token.sv : 0;
    return current !== null && current === held ? token : null;
  };
}
