// Account enumeration and invitations: a password-reset request answers the same way, in the same time, whether
// the address has a user or not (the mail leaves after the answer, over a real SMTP exchange with a slow server;
// sign-up's own case is in sign-up.test.ts); an invitation sent to an address is accepted by that address only.
import { eq } from "drizzle-orm";
import { afterAll, describe, expect } from "vitest";
import { settleBackground } from "@/lib/dashboard/background";
import { requestPasswordReset } from "@/lib/dashboard/email-tokens";
import { acceptInvite, createInvite, findOpenInvite, InviteForAnotherAddress } from "@/lib/dashboard/invites";
import { getActor } from "@/lib/dashboard/members";
import { signUp } from "@/lib/dashboard/signup";
import type { DbHandle } from "@/lib/db/client";
import { memberships } from "@/lib/db/schema";
import { createMailer, type Mailer } from "@/lib/providers/smtp/mailer";
import { dbTest } from "@/test/support/fixtures";
import { type FakeSmtp, startFakeSmtp } from "../fakes/smtp";

const SMTP_DELAY_MS = 500;
const PASSWORD = "correct horse battery";
const BASE = "https://findable.test";
const test = dbTest;
let handle: DbHandle;
let smtp: FakeSmtp;
let mailer: Mailer;
let n = 0;
const email = () => `enum${++n}-${process.pid}@example.com`;

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  smtp = await startFakeSmtp(undefined, { delayMs: SMTP_DELAY_MS });
  mailer = createMailer({ SMTP_URL: smtp.url, MAIL_FROM: "Findable <no-reply@findable.test>" });
});
afterAll(async () => {
  await settleBackground();
  await smtp?.close();
});

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

describe("password reset request", () => {
  test("a registered and an unknown address answer alike, without waiting on the mail server", async () => {
    const registered = email();
    await signUp(handle.db, { email: registered, password: PASSWORD }, { mailer, baseUrl: BASE });
    const ctx = { mailer, baseUrl: BASE };
    // Warm the statements both paths run.
    await requestPasswordReset(handle.db, email(), ctx);
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = smtp.mails.length;
      known.push((await timed(() => requestPasswordReset(handle.db, registered, ctx))).ms);
      // Answered before the slow server could even have accepted the message.
      expect(smtp.mails.length).toBe(before);
      unknown.push((await timed(() => requestPasswordReset(handle.db, `nobody-${i}-${email()}`, ctx))).ms);
    }
    // Both well under the mail server's 500 ms: the answer never waits on it.
    for (const ms of [...known, ...unknown]) expect(ms).toBeLessThan(SMTP_DELAY_MS / 2);
    // The registered address still gets its links (one per request), the unknown ones nothing.
    await settleBackground();
    const resets = smtp.mails.filter((m) => /Reset your password/.test(m.subject));
    expect(resets.filter((m) => m.to.includes(registered))).toHaveLength(3);
    expect(resets.every((m) => m.to.includes(registered))).toBe(true);
  });
});

describe("invitations", () => {
  test("one sent to an address is refused to another signed-in user, and stays open for the invited one", async () => {
    const { user: ownerUser } = await signUp(handle.db, { email: email(), password: PASSWORD });
    const owner = (await getActor(handle.db, ownerUser.id))!;
    const invited = email();
    const { token } = await createInvite(handle.db, owner, { email: invited, role: "admin" });
    const { user: stranger } = await signUp(handle.db, { email: email(), password: PASSWORD });
    await expect(acceptInvite(handle.db, stranger.id, token)).rejects.toBeInstanceOf(InviteForAnotherAddress);
    await expect(acceptInvite(handle.db, stranger.id, token)).rejects.toThrow(/another email address/);
    const strangerRows = await handle.db
      .select()
      .from(memberships)
      .where(eq(memberships.userId, stranger.id));
    expect(strangerRows.map((m) => m.accountId)).not.toContain(owner.accountId);
    expect(await findOpenInvite(handle.db, token)).not.toBeNull();

    const { user: invitee } = await signUp(handle.db, { email: invited, password: PASSWORD });
    expect(await acceptInvite(handle.db, invitee.id, token)).toEqual({
      accountId: owner.accountId,
      role: "admin",
    });
  });

  test("a link made without an address is for whoever the owner gives it to", async () => {
    const { user: ownerUser } = await signUp(handle.db, { email: email(), password: PASSWORD });
    const owner = (await getActor(handle.db, ownerUser.id))!;
    const { token } = await createInvite(handle.db, owner, { role: "member" });
    const { user } = await signUp(handle.db, { email: email(), password: PASSWORD });
    expect(await acceptInvite(handle.db, user.id, token)).toEqual({
      accountId: owner.accountId,
      role: "member",
    });
  });
});
