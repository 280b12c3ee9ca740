// Sign-up by emailed link, against a real database and a local SMTP server: the answer is the same, in the
// same time, whether the address has an account or not (the mail leaves after it); the link creates the account
// once, signs it in through next-auth, and says clearly why it cannot when it is used, expired or overtaken.
import { Auth, type AuthConfig } from "@auth/core";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect } from "vitest";
import { createAccount } from "@/lib/accounts/accounts";
import { authOptions, SIGN_UP_LINK_PROVIDER } from "@/lib/auth/options";
import { findLedgerMismatches, getCreditAccount } from "@/lib/credits/credits";
import { settleBackground } from "@/lib/dashboard/background";
import { FormError } from "@/lib/dashboard/errors";
import {
  completeSignUp,
  requestSignUp,
  resendSignUpLink,
  SIGN_UPS_PER_HOUR,
  SignUpLinkClosed,
  signUpLinkStatus,
} from "@/lib/dashboard/sign-up-links";
import { verifyCredentials } from "@/lib/dashboard/signup";
import type { DbHandle } from "@/lib/db/client";
import { signUpRequests, users } from "@/lib/db/schema";
import { createMailer, type Mailer } from "@/lib/providers/smtp/mailer";
import { dbTest as test } from "@/test/support/fixtures";
import { type FakeSmtp, startFakeSmtp } from "../fakes/smtp";

// A mail server slow enough that an answer which waited for it could not pass for one that did not.
const SMTP_DELAY_MS = 5000;
const PASSWORD = "correct horse battery";
const BASE = "https://findable.test";
let handle: DbHandle;
let smtp: FakeSmtp;
let mailer: Mailer;
let n = 0;
const email = () => `signup${++n}-${process.pid}@example.com`;
const ctx = () => ({ mailer, baseUrl: BASE });
const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

test.beforeAll(async ({ handle: fileDb }) => {
  handle = fileDb;
  smtp = await startFakeSmtp(undefined, { delayMs: SMTP_DELAY_MS });
  mailer = createMailer({ SMTP_URL: smtp.url, MAIL_FROM: "Findable <no-reply@findable.test>" });
});
afterAll(async () => {
  await settleBackground();
  await smtp?.close();
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The link of the newest sign-up mail to `to`. */
async function linkFor(to: string): Promise<string> {
  await settleBackground();
  const mail = smtp.mails
    .filter(
      (m) => m.to.some((t) => t.toLowerCase() === to.toLowerCase()) && /finish signing up/.test(m.subject),
    )
    .at(-1);
  expect(mail, `a sign-up mail to ${to}`).toBeDefined();
  const link = mail!.links.find((l) => l.startsWith(`${BASE}/signup/confirm?token=`));
  expect(link).toBeDefined();
  return link!;
}

describe("the answer", () => {
  test("is the same, in the same time, for a new and a taken address; only the mail differs", async () => {
    const taken = email();
    await createAccount(handle.db, { ownerEmail: taken });
    // Warm the statements both paths run.
    await requestSignUp(handle.db, { email: email(), password: PASSWORD }, ctx());
    await settleBackground();

    const fresh: number[] = [];
    const known: number[] = [];
    const freshAddresses: string[] = [];
    for (let i = 0; i < 4; i++) {
      const before = smtp.mails.length;
      const address = email();
      freshAddresses.push(address);
      let started = performance.now();
      const a = await requestSignUp(handle.db, { email: address, password: PASSWORD }, ctx());
      fresh.push(performance.now() - started);
      started = performance.now();
      const b = await requestSignUp(
        handle.db,
        { email: ` ${taken.toUpperCase()} `, password: "another password here", name: "Mallory" },
        ctx(),
      );
      known.push(performance.now() - started);
      // The same answer (the address as typed, trimmed), and neither waited for the mail server.
      expect(a).toEqual({ email: address });
      expect(b).toEqual({ email: taken.toUpperCase() });
      expect(smtp.mails.length).toBe(before);
    }
    // A send inside the answer would put the slow server's 1.5 s between the two medians.
    expect(Math.abs(median(fresh) - median(known))).toBeLessThan(SMTP_DELAY_MS / 3);

    await settleBackground();
    // The owner of the taken address is told, with the way to a new password; no link, no second user.
    const warnings = smtp.mails.filter((m) => m.to.includes(taken));
    expect(warnings).toHaveLength(4);
    for (const w of warnings) {
      expect(w.subject).toMatch(/Someone tried to create an account/);
      expect(w.links).toEqual([`${BASE}/forgot-password`]);
    }
    expect(
      await handle.db.select().from(users).where(sql`lower(${users.email}) = lower(${taken})`),
    ).toHaveLength(1);
    const waiting = await handle.db
      .select()
      .from(signUpRequests)
      .where(sql`lower(${signUpRequests.email}) = lower(${taken})`);
    expect(waiting).toHaveLength(0);
    // Each new address got its link, and no account yet.
    for (const address of freshAddresses) {
      expect(await linkFor(address)).toMatch(/^https:\/\/findable\.test\/signup\/confirm\?token=[\w-]{43}$/);
      expect(await handle.db.select().from(users).where(eq(users.email, address))).toHaveLength(0);
    }
  });

  test("refuses bad fields naming them, before anything is stored or sent", async () => {
    const before = smtp.mails.length;
    for (const [raw, field] of [
      [{ email: "not an address", password: PASSWORD }, "email"],
      [{ email: email(), password: "short" }, "password"],
      [{ email: email(), password: PASSWORD, name: "x".repeat(101) }, "name"],
    ] as const) {
      await expect(requestSignUp(handle.db, raw, ctx())).rejects.toMatchObject({ field });
    }
    await settleBackground();
    expect(smtp.mails.length).toBe(before);
  });

  test(`is limited to ${SIGN_UPS_PER_HOUR} an hour per client address, new or taken alike`, async () => {
    const ip = "203.0.113.77";
    const taken = email();
    await createAccount(handle.db, { ownerEmail: taken });
    for (let i = 0; i < SIGN_UPS_PER_HOUR; i++) {
      const address = i % 2 ? taken : email();
      await requestSignUp(handle.db, { email: address, password: PASSWORD }, { ...ctx(), ip });
    }
    for (const address of [email(), taken]) {
      await expect(
        requestSignUp(handle.db, { email: address, password: PASSWORD }, { ...ctx(), ip }),
      ).rejects.toThrow(/Too many sign-ups/);
    }
    await requestSignUp(handle.db, { email: email(), password: PASSWORD }, { ...ctx(), ip: "203.0.113.78" });
  });
});

describe("the link", () => {
  test("creates the account once, verified with its bonus, and lands on the sign-up's path", async () => {
    const address = email();
    await requestSignUp(
      handle.db,
      { email: address, password: PASSWORD, name: "Ada" },
      { ...ctx(), next: "/invite/abc?x=1" },
    );
    const token = tokenOf(await linkFor(address));
    expect(await signUpLinkStatus(handle.db, token)).toEqual({
      status: "open",
      email: address,
      next: "/invite/abc?x=1",
    });
    // Looking at the link changes nothing.
    expect((await signUpLinkStatus(handle.db, token)).status).toBe("open");

    const created = await completeSignUp(handle.db, token);
    expect(created.next).toBe("/invite/abc?x=1");
    expect(created.user).toMatchObject({ email: address, name: "Ada" });
    expect(created.user.emailVerified).toBeInstanceOf(Date);
    expect((await getCreditAccount(handle.db, created.account.id))?.balance).toBe(100);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
    // The password chosen on the form signs in.
    expect((await verifyCredentials(handle.db, { email: address, password: PASSWORD }))?.id).toBe(
      created.user.id,
    );

    // Used twice: refused, nothing more is created.
    await expect(completeSignUp(handle.db, token)).rejects.toMatchObject({ status: "used" });
    expect((await signUpLinkStatus(handle.db, token)).status).toBe("used");
    expect(await handle.db.select().from(users).where(eq(users.email, address))).toHaveLength(1);
    expect((await getCreditAccount(handle.db, created.account.id))?.balance).toBe(100);
  });

  test("expires; its page can send a new link, which works", async () => {
    const address = email();
    await requestSignUp(handle.db, { email: address, password: PASSWORD }, ctx());
    const old = tokenOf(await linkFor(address));
    await handle.db
      .update(signUpRequests)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(signUpRequests.email, address));
    expect((await signUpLinkStatus(handle.db, old)).status).toBe("expired");
    await expect(completeSignUp(handle.db, old)).rejects.toMatchObject({ status: "expired" });
    expect(await handle.db.select().from(users).where(eq(users.email, address))).toHaveLength(0);

    expect(await resendSignUpLink(handle.db, { token: old }, ctx())).toEqual({ email: address });
    const fresh = tokenOf(await linkFor(address));
    expect(fresh).not.toBe(old);
    const { user } = await completeSignUp(handle.db, fresh);
    expect(user.email).toBe(address);
    // The password typed on the original form is the one that signs in.
    expect((await verifyCredentials(handle.db, { email: address, password: PASSWORD }))?.id).toBe(user.id);
  });

  test("for an address that got an account meanwhile, says so and creates nothing", async () => {
    const address = email();
    await requestSignUp(handle.db, { email: address, password: PASSWORD }, ctx());
    const first = tokenOf(await linkFor(address));
    await requestSignUp(handle.db, { email: address.toUpperCase(), password: "a second password" }, ctx());
    const second = tokenOf(await linkFor(address.toUpperCase()));
    expect(second).not.toBe(first);
    const { user } = await completeSignUp(handle.db, first);

    expect((await signUpLinkStatus(handle.db, second)).status).toBe("taken");
    const err = await completeSignUp(handle.db, second).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SignUpLinkClosed);
    expect(err).toBeInstanceOf(FormError);
    expect((err as SignUpLinkClosed).message).toMatch(/already has an account/);
    // The second link was not used up: it keeps saying the same thing.
    expect((await signUpLinkStatus(handle.db, second)).status).toBe("taken");
    const rows = await handle.db.select().from(users).where(sql`lower(${users.email}) = lower(${address})`);
    expect(rows.map((r) => r.id)).toEqual([user.id]);
  });

  test("two links of one address opened at once create one user", async () => {
    const address = email();
    await requestSignUp(handle.db, { email: address, password: PASSWORD }, ctx());
    await requestSignUp(handle.db, { email: address, password: PASSWORD }, ctx());
    await settleBackground();
    const tokens = smtp.mails
      .filter((m) => m.to.includes(address))
      .map((m) => tokenOf(m.links.find((l) => l.includes("/signup/confirm"))!));
    expect(tokens).toHaveLength(2);
    const results = await Promise.allSettled(tokens.map((t) => completeSignUp(handle.db, t)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(SignUpLinkClosed);
    expect(await handle.db.select().from(users).where(eq(users.email, address))).toHaveLength(1);
  });

  test("an unknown or malformed token is invalid", async () => {
    for (const token of ["", "x", "A".repeat(43)]) {
      expect((await signUpLinkStatus(handle.db, token)).status).toBe("invalid");
      await expect(completeSignUp(handle.db, token)).rejects.toMatchObject({ status: "invalid" });
    }
    await expect(resendSignUpLink(handle.db, { token: "A".repeat(43) }, ctx())).rejects.toThrow(/not valid/);
  });
});

describe("sending the link again", () => {
  test("answers alike for a waiting, a taken and an unknown address; mails only the first two", async () => {
    const waiting = email();
    const taken = email();
    const unknown = email();
    await createAccount(handle.db, { ownerEmail: taken });
    await requestSignUp(handle.db, { email: waiting, password: PASSWORD }, ctx());
    await settleBackground();
    const before = smtp.mails.length;
    for (const address of [waiting, taken, unknown]) {
      expect(await resendSignUpLink(handle.db, { email: address }, ctx())).toEqual({ email: address });
    }
    expect(smtp.mails.length).toBe(before);
    await settleBackground();
    const sent = smtp.mails.slice(before);
    expect(sent.map((m) => [m.to[0], m.subject])).toEqual(
      expect.arrayContaining([
        [waiting, "Confirm your email to finish signing up"],
        [taken, "Someone tried to create an account with your address"],
      ]),
    );
    expect(sent).toHaveLength(2);
    // Both links of the waiting address work (the first one used wins).
    const links = smtp.mails.filter((m) => m.to.includes(waiting));
    expect(links).toHaveLength(2);
  });

  test("is limited per address", async () => {
    const address = email();
    for (let i = 0; i < 5; i++) await resendSignUpLink(handle.db, { email: address }, ctx());
    await expect(resendSignUpLink(handle.db, { email: address }, ctx())).rejects.toThrow(/Too many/);
  });
});

describe("without a mail server", () => {
  test("the link goes to the server log, and works from there", async () => {
    const lines: string[] = [];
    const logMailer = createMailer({}, (line) => lines.push(line));
    const address = email();
    await requestSignUp(
      handle.db,
      { email: address, password: PASSWORD },
      { mailer: logMailer, baseUrl: BASE },
    );
    await settleBackground();
    const line = lines.find((l) => l.includes(`To: ${address}`));
    expect(line).toMatch(/SMTP_URL is not set; not sent/);
    const link = line!.match(/https:\/\/findable\.test\/signup\/confirm\?token=[\w-]+/)?.[0];
    expect(link).toBeDefined();
    expect((await completeSignUp(handle.db, tokenOf(link!))).user.email).toBe(address);
  });
});

describe("next-auth's sign-up-link provider", () => {
  const SECRET = "test-secret-test-secret-test-secret-0123";
  const AUTH = "http://localhost/api/authjs";
  const SESSION = "authjs.session-token";
  const cookiesOf = (res: Response) =>
    res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0]!)
      .join("; ");

  test("signs the new user in from the link once", async () => {
    const config = {
      ...(authOptions(handle.db) as AuthConfig),
      secret: SECRET,
      trustHost: true,
      basePath: "/api/authjs",
    };
    const address = email();
    await requestSignUp(handle.db, { email: address, password: PASSWORD }, ctx());
    const token = tokenOf(await linkFor(address));

    const post = async () => {
      const csrf = await Auth(new Request(`${AUTH}/csrf`), config);
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      return Auth(
        new Request(`${AUTH}/callback/${SIGN_UP_LINK_PROVIDER}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookiesOf(csrf) },
          body: new URLSearchParams({
            csrfToken,
            token,
            callbackUrl: "http://localhost/dashboard",
          }).toString(),
        }),
        config,
      );
    };
    const first = await post();
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe("http://localhost/dashboard");
    const cookie = first.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${SESSION}=`))
      ?.split(";")[0];
    expect(cookie).toBeDefined();
    const session = await Auth(new Request(`${AUTH}/session`, { headers: { cookie: cookie! } }), config);
    const [user] = await handle.db.select().from(users).where(eq(users.email, address));
    expect(((await session.json()) as { user?: { id?: string } }).user?.id).toBe(user!.id);

    // The same link again: no session, no second user.
    const again = await post();
    expect(again.headers.get("location")).toMatch(/error=CredentialsSignin/);
    expect(again.headers.getSetCookie().some((c) => c.startsWith(`${SESSION}=ey`))).toBe(false);
    expect(await handle.db.select().from(users).where(eq(users.email, address))).toHaveLength(1);
  });
});
