import bcrypt from "bcryptjs";
import { createAccount } from "@/lib/accounts/accounts";
import { hitRateLimit } from "@/lib/api/rate-limit";
import { withBcryptSlot } from "@/lib/dashboard/bcrypt-gate";
import {
  assertSignInAllowed,
  clearSignInFailures,
  failureDelayMs,
  recordSignInFailure,
} from "@/lib/dashboard/sign-in-throttle";
import type { Db, DbOrTx } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { type MailContext, sendVerificationEmail } from "./email-tokens";
import { FormError } from "./errors";

export {
  credentialsSchema,
  hashPassword,
} from "./credentials";

import { BCRYPT_COST, credentialsSchema, findUserByEmail, hashPassword, signUpSchema } from "./credentials";

export { SIGN_UPS_PER_HOUR } from "./sign-up-links";

import { SIGN_UPS_PER_HOUR } from "./sign-up-links";

/**
 * Creates a password user, their account and the owner membership at once, then emails a verification link:
 * the 100-credit sign-up grant waits for it (verifyEmailToken). An email already in use is refused, whatever
 * its case. With `ip`, sign-ups from one address are limited to SIGN_UPS_PER_HOUR. The sign-up form does not
 * use it (its answer would tell who has an account): it goes through requestSignUp and the emailed link
 * (./sign-up-links). This is for tools and tests that need a user now.
 */
export async function signUp(
  db: Db,
  raw: { email: unknown; password: unknown; name?: unknown },
  ctx: { ip?: string } & MailContext = {},
) {
  const parsed = signUpSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new FormError(issue?.message ?? "Invalid sign-up.", String(issue?.path[0] ?? ""));
  }
  if (ctx.ip) {
    const limit = await hitRateLimit(db, `sign-up:${ctx.ip}`, SIGN_UPS_PER_HOUR, 60 * 60);
    if (!limit.allowed) {
      throw new FormError(
        `Too many sign-ups from your network. Try again in ${Math.max(1, Math.ceil(limit.reset / 60))} minutes.`,
      );
    }
  }
  const { email, password, name } = parsed.data;
  // Hashed before the address is looked up: a taken and a new address cost the same bcrypt work.
  const passwordHash = await hashPassword(password);
  if (await findUserByEmail(db, email)) throw new AddressTaken();
  let created: Awaited<ReturnType<typeof createAccount>>;
  try {
    created = await createAccount(db, {
      ownerEmail: email,
      name: name || undefined,
      passwordHash,
      bonusAwaitsVerification: true,
    });
  } catch (err) {
    // Two sign-ups racing for one email: the unique index decides.
    if (isUniqueViolation(err)) throw new AddressTaken();
    throw err;
  }
  // The account exists either way; a mail server that is down must not undo it (the dashboard resends).
  await sendVerificationEmail(db, created.user, ctx).catch((err: unknown) => {
    console.error(`[mail] verification email to ${email} failed: ${(err as Error).message}`);
  });
  return created;
}

/** The address already has a user. */
class AddressTaken extends FormError {
  constructor() {
    super("An account with this email already exists. Sign in instead.", "email");
    this.name = "AddressTaken";
  }
}

// Compared against when the email is unknown, so both paths cost one bcrypt comparison at cost 12.
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => {
  dummyHash ??= withBcryptSlot(() => bcrypt.hash("no such user: constant-time filler", BCRYPT_COST));
  return dummyHash;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface SignInContext {
  /** The client address (the production server resolves it from the socket and TRUST_PROXY). */
  ip?: string;
  /** Holds back a wrong answer; tests pass their own to record the delays. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The user for these credentials, or null. Unknown emails and OAuth-only users still pay one bcrypt compare.
 * Throws SignInThrottledError while the (email, address) pair or the address must wait after repeated
 * failures (checked before any bcrypt work); a wrong answer is held back a little longer each time.
 */
export async function verifyCredentials(db: DbOrTx, raw: unknown, ctx: SignInContext = {}) {
  const parsed = credentialsSchema.safeParse(raw);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  const ip = ctx.ip ?? "unknown";
  await assertSignInAllowed(db, email, ip);
  const user = await findUserByEmail(db, email);
  const hash = user?.passwordHash ?? (await getDummyHash());
  const ok = await withBcryptSlot(() => bcrypt.compare(password, hash));
  if (ok && user?.passwordHash) {
    await clearSignInFailures(db, email, ip);
    return user;
  }
  const failures = await recordSignInFailure(db, email, ip);
  await (ctx.sleep ?? sleep)(failureDelayMs(failures));
  return null;
}
