import bcrypt from "bcryptjs";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { createAccount } from "@/lib/accounts/accounts";
import { hitRateLimit } from "@/lib/api/rate-limit";
import type { Db, DbOrTx } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { FormError } from "./errors";

export const BCRYPT_COST = 12;

export const credentialsSchema = z.object({
  email: z
    .string()
    .trim()
    .max(254, { error: "Email address is too long." })
    .pipe(z.email({ error: "Enter a valid email address." })),
  password: z
    .string()
    .min(10, { error: "Use at least 10 characters." })
    .max(200, { error: "Use at most 200 characters." }),
});

export const signUpSchema = credentialsSchema.extend({
  name: z.string().trim().max(100, { error: "Use at most 100 characters." }).optional(),
});

export async function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

export async function findUserByEmail(db: DbOrTx, email: string) {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email.trim()})`);
  return row ?? null;
}

/**
 * Creates the user, their account (with the 100-credit sign-up grant) and the owner membership in one
 * transaction. An email already in use is refused, whatever its case.
 */
export async function signUp(db: Db, raw: { email: unknown; password: unknown; name?: unknown }) {
  const parsed = signUpSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new FormError(issue?.message ?? "Invalid sign-up.", String(issue?.path[0] ?? ""));
  }
  const { email, password, name } = parsed.data;
  if (await findUserByEmail(db, email)) {
    throw new FormError("An account with this email already exists. Sign in instead.", "email");
  }
  const passwordHash = await hashPassword(password);
  try {
    return await createAccount(db, { ownerEmail: email, name: name || undefined, passwordHash });
  } catch (err) {
    // Two sign-ups racing for one email: the unique index decides.
    if (isUniqueViolation(err)) {
      throw new FormError("An account with this email already exists. Sign in instead.", "email");
    }
    throw err;
  }
}

const isUniqueViolation = (err: unknown) =>
  (err as { code?: string })?.code === "23505" ||
  (err as { cause?: { code?: string } })?.cause?.code === "23505";

// Compared against when the email is unknown, so both paths cost one bcrypt comparison at cost 12.
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => {
  dummyHash ??= bcrypt.hash("no such user: constant-time filler", BCRYPT_COST);
  return dummyHash;
};

/** Sign-in attempts allowed per email address in a 15-minute window, whatever their outcome. */
export const SIGN_IN_ATTEMPTS = 10;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

/** Too many sign-in attempts for one email address: password guessing is throttled before any bcrypt work. */
export class SignInThrottledError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many sign-in attempts. Try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`);
    this.name = "SignInThrottledError";
  }
}

/**
 * The user for these credentials, or null. Unknown emails and OAuth-only users still pay one bcrypt compare.
 * Throws SignInThrottledError past SIGN_IN_ATTEMPTS for the address (counted in the database, so on every instance).
 */
export async function verifyCredentials(db: DbOrTx, raw: unknown) {
  const parsed = credentialsSchema.safeParse(raw);
  if (!parsed.success) return null;
  const attempts = await hitRateLimit(
    db,
    `sign-in:${parsed.data.email.toLowerCase()}`,
    SIGN_IN_ATTEMPTS,
    SIGN_IN_WINDOW_SECONDS,
  );
  if (!attempts.allowed) throw new SignInThrottledError(attempts.reset);
  const user = await findUserByEmail(db, parsed.data.email);
  const ok = await bcrypt.compare(parsed.data.password, user?.passwordHash ?? (await getDummyHash()));
  return ok && user?.passwordHash ? user : null;
}
