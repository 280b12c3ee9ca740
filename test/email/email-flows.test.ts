// Email against a local SMTP server: sign-up verification (the bonus waits for it), password reset and
// invitations. Each test reads the captured mail and follows its link through the real handlers.
import bcrypt from "bcryptjs";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, vi } from "vitest";
import { GET as verifyRoute } from "@/app/verify-email/route";
import { findLedgerMismatches, getCreditAccount } from "@/lib/credits/credits";
import {
  EMAILS_PER_HOUR,
  isResetTokenOpen,
  requestPasswordReset,
  resendVerificationEmail,
  resetPassword,
  sendVerificationEmail,
  verifyEmailToken,
} from "@/lib/dashboard/email-tokens";
import { FormError } from "@/lib/dashboard/errors";
import { emailInvite } from "@/lib/dashboard/invite-email";
import { acceptInvite, createInvite, findOpenInvite } from "@/lib/dashboard/invites";
import { getActor } from "@/lib/dashboard/members";
import { signUp, verifyCredentials } from "@/lib/dashboard/signup";
import { pendingVerification } from "@/lib/dashboard/verification";
import { type Db, type DbHandle, setDbHandle } from "@/lib/db/client";
import { emailTokens, users } from "@/lib/db/schema";
import { createMailer, type Mailer } from "@/lib/providers/smtp/mailer";
import { dbTest } from "@/test/support/fixtures";
import { type FakeSmtp, startFakeSmtp } from "../fakes/smtp";

const BASE = "https://app.findable.test";
const PASSWORD = "correct horse battery";
const test = dbTest;
let handle: DbHandle;
let db: Db;
let smtp: FakeSmtp;
let mailer: Mailer;
let n = 0;
const email = () => `mail${++n}-${process.pid}@example.com`;
const ctx = () => ({ mailer, baseUrl: BASE });
const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  db = handle.db;
  setDbHandle(handle);
  smtp = await startFakeSmtp();
  mailer = createMailer({ SMTP_URL: smtp.url, MAIL_FROM: "Findable <no-reply@findable.test>" });
});

afterAll(async () => {
  setDbHandle(undefined);
  await smtp?.close();
});

describe("mailer", () => {
  test("sends over SMTP from MAIL_FROM, with the text and an HTML part", async () => {
    await mailer.send({
      to: "x@example.com",
      subject: "Hello",
      text: "Line https://a.example/b?c=d",
      html: "<p>Hi</p>",
    });
    const mail = await smtp.waitFor("x@example.com", /Hello/);
    expect(mail.from).toBe("no-reply@findable.test");
    expect(mail.links).toEqual(["https://a.example/b?c=d"]);
    expect(mail.raw).toMatch(/text\/html/);
  });

  test("without SMTP_URL the message, link included, goes to the server log", async () => {
    const lines: string[] = [];
    const logMailer = createMailer({}, (l) => lines.push(l));
    expect(logMailer.kind).toBe("log");
    await logMailer.send({
      to: "y@example.com",
      subject: "Reset",
      text: "Open https://x.example/r?token=abc",
    });
    expect(lines.join("\n")).toMatch(
      /To: y@example\.com.*Subject: Reset[\s\S]*https:\/\/x\.example\/r\?token=abc/,
    );
  });
});

describe("sign-up verification", () => {
  test("the bonus waits for the address; the emailed link grants it once", async () => {
    const address = email();
    const { user, account } = await signUp(db, { email: address, password: PASSWORD }, ctx());
    expect((await getCreditAccount(db, account.id)).balance).toBe(0);
    expect(await pendingVerification(db, user.id, account.id)).toEqual({ email: address });

    const mail = await smtp.waitFor(address, /Verify your email/);
    expect(mail.text).toMatch(/100 free credits/);
    const link = mail.links.find((l) => l.startsWith(`${BASE}/verify-email?token=`))!;
    expect(link).toBeDefined();
    // The database keeps only the token's hash.
    const [row] = await db.select().from(emailTokens).where(eq(emailTokens.userId, user.id));
    expect(row!.tokenHash).not.toContain(tokenOf(link));
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);

    // Following the link through the route handler: redirected to the billing page, 100 credits.
    const res = await verifyRoute(new Request(`http://127.0.0.1/verify-email?token=${tokenOf(link)}`));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/\/dashboard\/billing\?verified=1$/);
    const credits = await getCreditAccount(db, account.id);
    expect(credits.balance).toBe(100);
    expect(credits.recentTransactions).toEqual([expect.objectContaining({ type: "grant", amount: 100 })]);
    expect(await pendingVerification(db, user.id, account.id)).toBeNull();
    const [verified] = await db.select().from(users).where(eq(users.id, user.id));
    expect(verified!.emailVerified).toBeInstanceOf(Date);

    // Single use: the link again is refused (redirect to sign-in with the reason), nothing granted.
    const again = await verifyRoute(new Request(`http://127.0.0.1/verify-email?token=${tokenOf(link)}`));
    expect(again.headers.get("location")).toMatch(/\/login\?error=link-expired$/);
    expect((await getCreditAccount(db, account.id)).balance).toBe(100);
    expect(await findLedgerMismatches(db)).toEqual([]);
  });

  test("a second link for the same user cannot grant the bonus twice", async () => {
    const address = email();
    const { user, account } = await signUp(db, { email: address, password: PASSWORD }, ctx());
    await sendVerificationEmail(db, user, ctx());
    // Mail goes out in the background: as long as smtp.waitFor allows, not vi.waitFor's one second.
    await vi.waitFor(() => expect(smtp.mails.filter((m) => m.to.includes(address))).toHaveLength(2), {
      timeout: 5000,
    });
    const links = smtp.mails.filter((m) => m.to.includes(address)).map((m) => tokenOf(m.links[0]!));
    const results = await Promise.allSettled(links.map((t) => verifyEmailToken(db, t)));
    const granted = results.map((r) => (r.status === "fulfilled" ? r.value.granted : 0));
    expect(granted.reduce((a, b) => a + b, 0)).toBe(100);
    expect((await getCreditAccount(db, account.id)).balance).toBe(100);
  });

  const badTokens: { name: string; token: () => Promise<string> }[] = [
    { name: "an unknown token", token: async () => "not-a-token" },
    {
      name: "an expired token",
      token: async () => {
        const address = email();
        const { user } = await signUp(db, { email: address, password: PASSWORD }, ctx());
        const link = (await smtp.waitFor(address)).links[0]!;
        await db
          .update(emailTokens)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(emailTokens.userId, user.id));
        return tokenOf(link);
      },
    },
    {
      name: "a token sent to an address the user no longer has",
      token: async () => {
        const address = email();
        const { user } = await signUp(db, { email: address, password: PASSWORD }, ctx());
        const link = (await smtp.waitFor(address)).links[0]!;
        await db
          .update(users)
          .set({ email: `changed-${address}` })
          .where(eq(users.id, user.id));
        return tokenOf(link);
      },
    },
  ];
  for (const c of badTokens) {
    test(`refuses ${c.name}`, async () => {
      const token = await c.token();
      await expect(verifyEmailToken(db, token)).rejects.toBeInstanceOf(FormError);
    });
  }

  test("resending is for unverified users only, and limited per hour", async () => {
    const address = email();
    const { user } = await signUp(db, { email: address, password: PASSWORD }, ctx());
    for (let i = 0; i < EMAILS_PER_HOUR; i++) await resendVerificationEmail(db, user.id, ctx());
    await expect(resendVerificationEmail(db, user.id, ctx())).rejects.toThrow(/Too many emails/);
    const link = (await smtp.waitFor(address)).links[0]!;
    await verifyEmailToken(db, tokenOf(link));
    await expect(resendVerificationEmail(db, user.id, ctx())).rejects.toThrow(/already verified/);
  });

  test("a mail server that is down does not undo the sign-up", async () => {
    const down = createMailer({ SMTP_URL: "smtp://127.0.0.1:9" });
    const address = email();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const { account } = await signUp(
      db,
      { email: address, password: PASSWORD },
      { mailer: down, baseUrl: BASE },
    );
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/verification email .* failed/));
    errors.mockRestore();
    expect((await getCreditAccount(db, account.id)).balance).toBe(0);
  });
});

describe("password reset", () => {
  test("the emailed link sets a new password once; other sessions end", async () => {
    const address = email();
    const { user } = await signUp(db, { email: address, password: PASSWORD }, ctx());
    const versionBefore = user.sessionVersion;
    await requestPasswordReset(db, address.toUpperCase(), { ...ctx(), ip: "203.0.113.10" });
    const mail = await smtp.waitFor(address, /Reset your password/);
    const link = mail.links.find((l) => l.startsWith(`${BASE}/reset-password?token=`))!;
    const token = tokenOf(link);
    expect(await isResetTokenOpen(db, token)).toBe(true);

    await expect(resetPassword(db, { token, password: "short" })).rejects.toMatchObject({
      field: "password",
    });
    const { email: signInEmail } = await resetPassword(db, { token, password: "a brand new password" });
    expect(signInEmail).toBe(address);
    const [after] = await db.select().from(users).where(eq(users.id, user.id));
    expect(await bcrypt.compare("a brand new password", after!.passwordHash!)).toBe(true);
    expect(after!.sessionVersion).toBe(versionBefore + 1);
    expect(await verifyCredentials(db, { email: address, password: "a brand new password" })).not.toBeNull();

    // Used once; the reset link also proved the mailbox, so the waiting bonus was granted.
    expect(await isResetTokenOpen(db, token)).toBe(false);
    await expect(resetPassword(db, { token, password: "yet another password" })).rejects.toThrow(
      /expired or was already used/,
    );
    expect(after!.emailVerified).toBeInstanceOf(Date);
    const actor = await getActor(db, user.id);
    expect((await getCreditAccount(db, actor!.accountId)).balance).toBe(100);
  });

  test("an unknown address gets the same answer and no mail", async () => {
    const before = smtp.mails.length;
    await expect(requestPasswordReset(db, "nobody-here@example.com", ctx())).resolves.toBeUndefined();
    await new Promise((r) => setTimeout(r, 100));
    expect(smtp.mails.length).toBe(before);
  });

  test("an expired link is refused; a newer link still works", async () => {
    const address = email();
    await signUp(db, { email: address, password: PASSWORD }, ctx());
    await requestPasswordReset(db, address, ctx());
    await requestPasswordReset(db, address, ctx());
    await vi.waitFor(
      () =>
        expect(smtp.mails.filter((m) => m.to.includes(address) && /Reset/.test(m.subject))).toHaveLength(2),
      { timeout: 5000 },
    );
    const [first, second] = smtp.mails
      .filter((m) => m.to.includes(address) && /Reset/.test(m.subject))
      .map((m) => tokenOf(m.links[0]!));
    await db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(
        eq(
          emailTokens.tokenHash,
          (await import("node:crypto")).createHash("sha256").update(first!).digest("hex"),
        ),
      );
    await expect(
      resetPassword(db, { token: first, password: "a brand new password" }),
    ).rejects.toBeInstanceOf(FormError);
    await resetPassword(db, { token: second, password: "a brand new password" });
  });

  test("requests are limited per address and per client", async () => {
    const address = email();
    await signUp(db, { email: address, password: PASSWORD }, ctx());
    for (let i = 0; i < EMAILS_PER_HOUR; i++) await requestPasswordReset(db, address, ctx());
    await expect(requestPasswordReset(db, address, ctx())).rejects.toThrow(/Too many requests/);
    for (let i = 0; i < EMAILS_PER_HOUR; i++)
      await requestPasswordReset(db, email(), { ...ctx(), ip: "198.51.100.7" });
    await expect(requestPasswordReset(db, email(), { ...ctx(), ip: "198.51.100.7" })).rejects.toThrow(
      /Too many/,
    );
  });

  test("a malformed address is refused naming the field", async () => {
    await expect(requestPasswordReset(db, "not an email", ctx())).rejects.toMatchObject({ field: "email" });
  });
});

describe("invitations", () => {
  test("the invitation is emailed; its link joins the account", async () => {
    const { user: owner, account } = await signUp(db, { email: email(), password: PASSWORD }, ctx());
    const actor = (await getActor(db, owner.id, account.id))!;
    const to = email();
    const { token } = await createInvite(db, actor, { email: to, role: "admin" });
    expect(await emailInvite(to, token, actor.accountName, "admin", ctx())).toEqual({ emailedTo: to });
    const mail = await smtp.waitFor(to, /invited/);
    expect(mail.subject).toContain(actor.accountName);
    expect(mail.text).toMatch(/as an admin/);
    const link = mail.links.find((l) => l.startsWith(`${BASE}/invite/`))!;
    const linkToken = new URL(link).pathname.split("/").pop()!;
    expect(await findOpenInvite(db, linkToken)).not.toBeNull();
    const { user: invitee } = await signUp(db, { email: to, password: PASSWORD }, ctx());
    expect(await acceptInvite(db, invitee.id, linkToken)).toEqual({ accountId: account.id, role: "admin" });
  });

  test("a failed send keeps the invite and says so", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const out = await emailInvite("z@example.com", "t", "Acme", "member", {
      mailer: createMailer({ SMTP_URL: "smtp://127.0.0.1:9" }),
      baseUrl: BASE,
    });
    errors.mockRestore();
    expect(out).toEqual({ emailError: "The invitation email could not be sent." });
  });
});
