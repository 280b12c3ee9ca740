import bcrypt from "bcryptjs";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { withBcryptSlot } from "./bcrypt-gate";
import { FormError } from "./errors";
import {
  assertSignInAllowed,
  clearSignInFailures,
  recordSignInFailure,
  SignInThrottledError,
} from "./sign-in-throttle";
import { credentialsSchema, hashPassword } from "./signup";

/**
 * Replaces the user's password after checking the current one (throttled like a sign-in, so a stolen
 * session cannot guess it quickly) and ends every session of the user, this one included. Returns the
 * user's email so the caller can sign them in again with the new password.
 */
export async function changePassword(
  db: Db,
  userId: string,
  raw: { currentPassword: unknown; newPassword: unknown },
  ctx: { ip?: string } = {},
): Promise<{ email: string }> {
  const next = credentialsSchema.shape.password.safeParse(raw.newPassword);
  if (!next.success) throw new FormError(next.error.issues[0]?.message ?? "Invalid password.", "newPassword");
  const current = typeof raw.currentPassword === "string" ? raw.currentPassword : "";
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user?.passwordHash) {
    throw new FormError("This user signs in with GitHub or Google and has no password to change.");
  }
  const ip = ctx.ip ?? "unknown";
  try {
    await assertSignInAllowed(db, user.email, ip);
  } catch (err) {
    if (err instanceof SignInThrottledError) throw new FormError(err.message, "currentPassword");
    throw err;
  }
  const hash = user.passwordHash;
  if (!(await withBcryptSlot(() => bcrypt.compare(current.slice(0, 200), hash)))) {
    await recordSignInFailure(db, user.email, ip);
    throw new FormError("The current password is wrong.", "currentPassword");
  }
  await clearSignInFailures(db, user.email, ip);
  const passwordHash = await hashPassword(next.data);
  await db
    .update(users)
    .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId));
  return { email: user.email };
}
