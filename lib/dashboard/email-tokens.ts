// Links sent by email: address verification (which releases the sign-up bonus) and password reset.
// A token is 32 random bytes in the link; the database keeps only its SHA-256. Each is used once (the
// conditional UPDATE that marks it used is the guard) and expires.
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { grantPendingSignupBonus } from "@/lib/accounts/accounts";
import { hitRateLimit } from "@/lib/api/rate-limit";
import { SIGNUP_BONUS } from "@/lib/credits/credits";
import type { Db, DbOrTx } from "@/lib/db/client";
import { type EmailTokenPurpose, emailTokens, users } from "@/lib/db/schema";
import { publicUrl } from "@/lib/email/links";
import { passwordResetEmail, verificationEmail } from "@/lib/email/messages";
import { defaultMailer, type Mailer } from "@/lib/providers/smtp/mailer";
import { inBackground } from "./background";
import { credentialsSchema, findUserByEmail, hashPassword } from "./credentials";
import { FormError } from "./errors";

const VERIFY_TTL_MS = 24 * 60 * 60 * 1000;
const RESET_TTL_MS = 60 * 60 * 1000;
/** Emails one user (verification) or one address and one client (reset) may trigger per hour. */
export const EMAILS_PER_HOUR = 5;

export interface MailContext {
  mailer?: Mailer;
  /** Overrides PUBLIC_BASE_URL (tests). */
  baseUrl?: string;
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

async function issueToken(
  db: DbOrTx,
  user: { id: string; email: string },
  purpose: EmailTokenPurpose,
  ttlMs: number,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.insert(emailTokens).values({
    userId: user.id,
    purpose,
    email: user.email,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + ttlMs),
  });
  return token;
}

const link = (path: string, token: string, ctx: MailContext) =>
  ctx.baseUrl
    ? `${ctx.baseUrl.replace(/\/+$/, "")}${path}?token=${token}`
    : publicUrl(`${path}?token=${token}`);

/** Sends (or, without SMTP, logs) a verification link to the user's address. */
export async function sendVerificationEmail(
  db: Db,
  user: { id: string; email: string },
  ctx: MailContext = {},
): Promise<void> {
  const token = await issueToken(db, user, "verify_email", VERIFY_TTL_MS);
  await (ctx.mailer ?? defaultMailer()).send(
    verificationEmail(user.email, link("/verify-email", token, ctx), SIGNUP_BONUS),
  );
}

/** "Send the link again" from the dashboard: only while unverified, EMAILS_PER_HOUR at most. */
export async function resendVerificationEmail(db: Db, userId: string, ctx: MailContext = {}): Promise<void> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new FormError("Unknown user.");
  if (user.emailVerified) throw new FormError("Your address is already verified.");
  const limit = await hitRateLimit(db, `verify-mail:${userId}`, EMAILS_PER_HOUR, 60 * 60);
  if (!limit.allowed) {
    throw new FormError(`Too many emails. Try again in ${Math.max(1, Math.ceil(limit.reset / 60))} minutes.`);
  }
  await sendVerificationEmail(db, user, ctx);
}

/**
 * Marks the address verified and grants the pending sign-up bonus, in one transaction. A used, expired or
 * unknown token, or one sent to an address the user no longer has, is refused.
 */
export async function verifyEmailToken(db: Db, token: string): Promise<{ userId: string; granted: number }> {
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(emailTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(emailTokens.tokenHash, hashToken(token)),
          eq(emailTokens.purpose, "verify_email"),
          isNull(emailTokens.usedAt),
          gt(emailTokens.expiresAt, new Date()),
        ),
      )
      .returning();
    if (!used) throw new FormError("This verification link has expired or was already used.");
    const [user] = await tx
      .update(users)
      .set({ emailVerified: sql`coalesce(${users.emailVerified}, now())` })
      .where(and(eq(users.id, used.userId), sql`lower(${users.email}) = lower(${used.email})`))
      .returning({ id: users.id });
    if (!user) throw new FormError("This verification link was sent to another address.");
    const granted = await grantPendingSignupBonus(tx, user.id);
    return { userId: user.id, granted };
  });
}

/**
 * "Forgot password?": sends a reset link when the address belongs to a user. The answer is the same either
 * way, and in the same time, since the lookup and the mail happen after the answer (no one learns which
 * addresses have accounts); EMAILS_PER_HOUR per address and per client address.
 */
export async function requestPasswordReset(
  db: Db,
  rawEmail: unknown,
  ctx: MailContext & { ip?: string } = {},
): Promise<void> {
  const parsed = credentialsSchema.shape.email.safeParse(rawEmail);
  if (!parsed.success) throw new FormError(parsed.error.issues[0]?.message ?? "Invalid email.", "email");
  const email = parsed.data;
  for (const bucket of [`reset-mail:${email.toLowerCase()}`, ...(ctx.ip ? [`reset-ip:${ctx.ip}`] : [])]) {
    const limit = await hitRateLimit(db, bucket, EMAILS_PER_HOUR, 60 * 60);
    if (!limit.allowed) {
      throw new FormError(
        `Too many requests. Try again in ${Math.max(1, Math.ceil(limit.reset / 60))} minutes.`,
      );
    }
  }
  // Looked up and mailed after the answer: a registered and an unknown address answer in the same time.
  inBackground("mail: password reset", async () => {
    const user = await findUserByEmail(db, email);
    if (!user) return;
    const token = await issueToken(db, user, "reset_password", RESET_TTL_MS);
    await (ctx.mailer ?? defaultMailer()).send(
      passwordResetEmail(user.email, link("/reset-password", token, ctx)),
    );
  });
}

/** Whether a reset link can still be used (the page shows the form or says it expired). */
export async function isResetTokenOpen(db: DbOrTx, token: string): Promise<boolean> {
  const [row] = await db
    .select({ id: emailTokens.id })
    .from(emailTokens)
    .where(
      and(
        eq(emailTokens.tokenHash, hashToken(token)),
        eq(emailTokens.purpose, "reset_password"),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, new Date()),
      ),
    );
  return Boolean(row);
}

/**
 * Sets a new password from a reset link: the token is used up, every other open reset link of the user with
 * it, every session ends (session version), and, since the link proved the mailbox, the address counts as
 * verified (a waiting sign-up bonus is granted). Returns the email to sign in with.
 */
export async function resetPassword(
  db: Db,
  raw: { token: unknown; password: unknown },
): Promise<{ email: string }> {
  const token = typeof raw.token === "string" ? raw.token : "";
  const next = credentialsSchema.shape.password.safeParse(raw.password);
  if (!next.success) throw new FormError(next.error.issues[0]?.message ?? "Invalid password.", "password");
  if (!(await isResetTokenOpen(db, token))) {
    throw new FormError("This reset link has expired or was already used. Ask for a new one.");
  }
  const passwordHash = await hashPassword(next.data);
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(emailTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(emailTokens.tokenHash, hashToken(token)),
          eq(emailTokens.purpose, "reset_password"),
          isNull(emailTokens.usedAt),
          gt(emailTokens.expiresAt, new Date()),
        ),
      )
      .returning();
    if (!used) throw new FormError("This reset link has expired or was already used. Ask for a new one.");
    const [user] = await tx
      .update(users)
      .set({
        passwordHash,
        sessionVersion: sql`${users.sessionVersion} + 1`,
        emailVerified: sql`case when lower(${users.email}) = lower(${used.email}) then coalesce(${users.emailVerified}, now()) else ${users.emailVerified} end`,
      })
      .where(eq(users.id, used.userId))
      .returning({ id: users.id, email: users.email, emailVerified: users.emailVerified });
    if (!user) throw new FormError("This reset link has expired or was already used. Ask for a new one.");
    await tx
      .update(emailTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(emailTokens.userId, user.id),
          eq(emailTokens.purpose, "reset_password"),
          isNull(emailTokens.usedAt),
        ),
      );
    if (user.emailVerified) await grantPendingSignupBonus(tx, user.id);
    return { email: user.email };
  });
}
