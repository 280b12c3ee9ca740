// Sign-up by emailed link. The form's answer is always "check your email", in the same time, whatever the
// address: looking it up and mailing happen after the answer. A new address gets a link that creates the
// account (verified, with its sign-up bonus) and signs it in; an address that already has a user gets a mail
// to its owner instead, and no link. The account exists only once the link is opened, so no one can hold an
// address they cannot read mail at.
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { createAccountIn } from "@/lib/accounts/accounts";
import { hitRateLimit } from "@/lib/api/rate-limit";
import { SIGNUP_BONUS } from "@/lib/credits/credits";
import type { Db, DbOrTx } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { type SignUpRequest, signUpRequests } from "@/lib/db/schema";
import { publicUrl } from "@/lib/email/links";
import { signUpAttemptEmail, signUpLinkEmail } from "@/lib/email/messages";
import { defaultMailer } from "@/lib/providers/smtp/mailer";
import { inBackground } from "./background";
import { credentialsSchema, findUserByEmail, hashPassword, signUpSchema } from "./credentials";
import { EMAILS_PER_HOUR, type MailContext } from "./email-tokens";
import { FormError } from "./errors";

/** How long a sign-up link works. */
const SIGN_UP_LINK_TTL_MS = 24 * 60 * 60 * 1000;
/** Sign-ups one client address may send per hour (each grants credits once confirmed, so they are worth farming). */
export const SIGN_UPS_PER_HOUR = 5;
/** Requests kept after they expire, so that an old link still gets its own page ("expired", "send a new one"). */
const KEEP_AFTER_EXPIRY_MS = 7 * 24 * 60 * 60 * 1000;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

const siteLink = (path: string, ctx: MailContext) =>
  ctx.baseUrl ? `${ctx.baseUrl.replace(/\/+$/, "")}${path}` : publicUrl(path);

const tooMany = (reset: number) =>
  new FormError(`Too many sign-ups. Try again in ${Math.max(1, Math.ceil(reset / 60))} minutes.`);

async function limit(db: Db, bucket: string, perHour: number) {
  const hit = await hitRateLimit(db, bucket, perHour, 60 * 60);
  if (!hit.allowed) throw tooMany(hit.reset);
}

interface Pending {
  email: string;
  name: string | null;
  passwordHash: string;
  nextPath: string | null;
}

/** To the owner of an address someone tried to sign up with: sign in, or choose a new password. */
async function mailOwner(email: string, ctx: MailContext): Promise<void> {
  await (ctx.mailer ?? defaultMailer()).send(signUpAttemptEmail(email, siteLink("/forgot-password", ctx)));
}

/** Stores a new link for `pending` and mails it; rows long expired are purged on the way. */
async function issueLink(db: Db, pending: Pending, ctx: MailContext): Promise<void> {
  await db
    .delete(signUpRequests)
    .where(lt(signUpRequests.expiresAt, sql`now() - make_interval(secs => ${KEEP_AFTER_EXPIRY_MS / 1000})`));
  const token = randomBytes(32).toString("base64url");
  await db.insert(signUpRequests).values({
    ...pending,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + SIGN_UP_LINK_TTL_MS),
  });
  await (ctx.mailer ?? defaultMailer()).send(
    signUpLinkEmail(pending.email, siteLink(`/signup/confirm?token=${token}`, ctx), SIGNUP_BONUS),
  );
}

/** After the answer: the owner's mail when the address has a user, else a new link. */
async function deliver(db: Db, pending: Pending, ctx: MailContext): Promise<void> {
  const owner = await findUserByEmail(db, pending.email);
  if (owner) await mailOwner(owner.email, ctx);
  else await issueLink(db, pending, ctx);
}

/**
 * The sign-up form: checks the fields and the rate limits (SIGN_UPS_PER_HOUR per client address,
 * EMAILS_PER_HOUR per address), hashes the password, and returns; the rest happens after the answer
 * (`deliver`). Nothing in the answer or its timing depends on whether the address has a user. `ctx.next` is
 * where the new user lands, a same-origin path the caller has checked (it is checked again when the link is used).
 */
export async function requestSignUp(
  db: Db,
  raw: { email: unknown; password: unknown; name?: unknown },
  ctx: { ip?: string; next?: string } & MailContext = {},
): Promise<{ email: string }> {
  const parsed = signUpSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new FormError(issue?.message ?? "Invalid sign-up.", String(issue?.path[0] ?? ""));
  }
  const { email, password, name } = parsed.data;
  if (ctx.ip) await limit(db, `sign-up:${ctx.ip}`, SIGN_UPS_PER_HOUR);
  await limit(db, `sign-up-mail:${email.toLowerCase()}`, EMAILS_PER_HOUR);
  const passwordHash = await hashPassword(password);
  const pending = { email, name: name || null, passwordHash, nextPath: ctx.next || null };
  inBackground("mail: sign-up", () => deliver(db, pending, ctx));
  return { email };
}

async function findByToken(db: DbOrTx, token: string): Promise<SignUpRequest | null> {
  if (!token) return null;
  const [row] = await db
    .select()
    .from(signUpRequests)
    .where(eq(signUpRequests.tokenHash, hashToken(token)));
  return row ?? null;
}

/**
 * "Send the link again", from the "check your email" answer (by address) or an expired link's page (by its
 * token). Answers the same whatever the address; the newest sign-up waiting for it gets a fresh link (the
 * older links keep working until they expire), an address that meanwhile has a user gets the owner's mail.
 */
export async function resendSignUpLink(
  db: Db,
  by: { email: unknown } | { token: string },
  ctx: { ip?: string } & MailContext = {},
): Promise<{ email: string }> {
  let email: string;
  if ("token" in by) {
    const row = await findByToken(db, by.token);
    if (!row) throw new FormError(SIGN_UP_LINK_MESSAGES.invalid);
    email = row.email;
  } else {
    const parsed = credentialsSchema.shape.email.safeParse(by.email);
    if (!parsed.success) throw new FormError(parsed.error.issues[0]?.message ?? "Invalid email.", "email");
    email = parsed.data;
  }
  if (ctx.ip) await limit(db, `sign-up-resend:${ctx.ip}`, EMAILS_PER_HOUR);
  await limit(db, `sign-up-mail:${email.toLowerCase()}`, EMAILS_PER_HOUR);
  inBackground("mail: sign-up again", async () => {
    const [latest] = await db
      .select()
      .from(signUpRequests)
      .where(and(sql`lower(${signUpRequests.email}) = lower(${email})`, isNull(signUpRequests.usedAt)))
      .orderBy(desc(signUpRequests.createdAt))
      .limit(1);
    const owner = await findUserByEmail(db, email);
    if (owner) await mailOwner(owner.email, ctx);
    else if (latest) {
      const { email: to, name, passwordHash, nextPath } = latest;
      await issueLink(db, { email: to, name, passwordHash, nextPath }, ctx);
    }
  });
  return { email };
}

export type SignUpLinkStatus = "open" | "used" | "taken" | "expired" | "invalid";

/** What each link page says (the open one shows the button instead). */
export const SIGN_UP_LINK_MESSAGES: Record<Exclude<SignUpLinkStatus, "open">, string> = {
  invalid: "This link is not valid. Open the whole link from the email, or sign up again to get a new one.",
  used: "This link was already used: your account exists. Sign in with the email address and password you chose.",
  taken:
    "This email address already has an account. Sign in, or choose a new password if you do not remember it.",
  expired: "This link has expired: links work for 24 hours. We can send you a new one.",
};

/** Where a link stands, without using it (the page it opens shows this). */
export async function signUpLinkStatus(
  db: DbOrTx,
  token: string,
): Promise<{ status: SignUpLinkStatus; email?: string; next?: string | null }> {
  const row = await findByToken(db, token);
  if (!row) return { status: "invalid" };
  const base = { email: row.email, next: row.nextPath };
  if (row.usedAt) return { ...base, status: "used" };
  if (await findUserByEmail(db, row.email)) return { ...base, status: "taken" };
  if (row.expiresAt.getTime() <= Date.now()) return { ...base, status: "expired" };
  return { ...base, status: "open" };
}

/** A link that cannot create an account (any status but "open"); `status` says why. */
export class SignUpLinkClosed extends FormError {
  constructor(readonly status: Exclude<SignUpLinkStatus, "open">) {
    super(SIGN_UP_LINK_MESSAGES[status]);
    this.name = "SignUpLinkClosed";
  }
}

/**
 * Uses the link: in one transaction the request is marked used (the conditional update is the single-use
 * guard) and the user and account are created, the address verified and the bonus granted. Returns the user
 * and the path to land on (as the form gave it: the caller checks it again). A used, expired or unknown link, or one for an address that has a user by now,
 * throws SignUpLinkClosed and changes nothing.
 */
export async function completeSignUp(db: Db, token: string) {
  try {
    return await db.transaction(async (tx) => {
      const [used] = await tx
        .update(signUpRequests)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(signUpRequests.tokenHash, hashToken(token)),
            isNull(signUpRequests.usedAt),
            gt(signUpRequests.expiresAt, new Date()),
          ),
        )
        .returning();
      if (!used) {
        const { status } = await signUpLinkStatus(tx, token);
        throw new SignUpLinkClosed(status === "open" ? "used" : status);
      }
      if (await findUserByEmail(tx, used.email)) throw new SignUpLinkClosed("taken");
      const created = await createAccountIn(tx, {
        ownerEmail: used.email,
        name: used.name ?? undefined,
        passwordHash: used.passwordHash,
        emailVerified: true,
      });
      await tx.update(signUpRequests).set({ userId: created.user.id }).where(eq(signUpRequests.id, used.id));
      return { ...created, next: used.nextPath };
    });
  } catch (err) {
    // Two links for one address opened at once: the users' unique index decides.
    if (isUniqueViolation(err)) throw new SignUpLinkClosed("taken");
    throw err;
  }
}
