// The sign-up form's server actions, as the browser posts them, on a real database: a new and a taken address get
// the very same answer; the emailed link's button signs the new user in and lands on the checked `next` path;
// a used link says so. Next's request APIs and next-auth's entry points are the only stand-ins.
import { afterAll, describe, expect, vi } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import type { Mailer, MailMessage } from "@/lib/providers/smtp/mailer";
import { dbTest as test } from "@/test/support/fixtures";

const request = vi.hoisted(() => ({
  headers: new Headers({ origin: "https://app.example", host: "app.example" }),
  signedIn: [] as string[],
  sent: [] as { to: string; subject: string; text: string }[],
}));

vi.mock("next/headers", () => ({
  headers: async () => request.headers,
  cookies: async () => ({ get: () => undefined, set: () => {}, delete: () => {} }),
}));
vi.mock("next-auth", async () => ({ AuthError: (await import("@auth/core/errors")).AuthError }));
// The mail goes to a list instead of a server (the service's own tests use a real SMTP exchange).
vi.mock("@/lib/providers/smtp/mailer", async (original) => {
  const real = await original<typeof import("@/lib/providers/smtp/mailer")>();
  const mailer: Mailer = {
    kind: "smtp",
    async send(m: MailMessage) {
      request.sent.push({ to: m.to, subject: m.subject, text: m.text });
    },
  };
  return { ...real, defaultMailer: () => mailer };
});
// next-auth's signIn runs the app's own provider (as its callback route does), then redirects.
vi.mock("@/lib/auth/config", async () => {
  const { redirect } = await import("next/navigation");
  const { CredentialsSignin } = await import("@auth/core/errors");
  const { getDb } = await import("@/lib/db/client");
  const { authOptions } = await import("@/lib/auth/options");
  return {
    auth: async () => null,
    signIn: async (provider: string, opts: Record<string, string> & { redirectTo: string }) => {
      const config = authOptions(await getDb());
      // Auth.js merges a provider's `options` (its own id, its authorize) over the Credentials defaults.
      const match = config.providers
        .map((p) => (typeof p === "function" ? p() : p) as unknown as Provider)
        .find((p) => (p.options?.id ?? p.id) === provider)!;
      const user = await match.options!.authorize(opts, new Request("https://app.example/"));
      if (!user) throw new CredentialsSignin();
      request.signedIn.push(user.id);
      redirect(opts.redirectTo);
    },
    signOut: async () => {},
    handlers: {},
  };
});

interface Provider {
  id: string;
  options?: { id?: string; authorize: (c: unknown, r: Request) => Promise<{ id: string } | null> };
}

const { setDbHandle } = await import("@/lib/db/client");
const { createAccount } = await import("@/lib/accounts/accounts");
const { settleBackground } = await import("@/lib/dashboard/background");
const { signUpAction } = await import("@/lib/actions/sign-up");
const { confirmSignUpAction } = await import("@/lib/actions/confirm-sign-up");
const { resendSignUpLinkAction } = await import("@/lib/actions/resend-sign-up-link");

let handle: DbHandle;
const PASSWORD = "correct horse battery";

test.beforeAll(async ({ handle: fileDb }) => {
  handle = fileDb;
  setDbHandle(handle);
});
afterAll(async () => {
  await settleBackground();
  setDbHandle(undefined);
});

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

async function redirectOf(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
  } catch (err) {
    const digest = (err as { digest?: unknown }).digest;
    if (typeof digest === "string" && digest.startsWith("NEXT_REDIRECT")) return digest.split(";")[2] ?? "";
    throw err;
  }
  throw new Error("no redirect");
}

const linkTo = (to: string) => {
  const mail = request.sent.filter((m) => m.to === to && /finish signing up/.test(m.subject)).at(-1);
  return mail?.text.match(/\/signup\/confirm\?token=([\w-]+)/)?.[1];
};

describe("sign-up action", () => {
  test("a new and a taken address get the same answer; the mail tells them apart", async () => {
    const taken = `taken-${process.pid}@example.com`;
    const fresh = `fresh-${process.pid}@example.com`;
    await createAccount(handle.db, { ownerEmail: taken });
    request.headers.set("x-forwarded-for", "198.51.100.1");
    const answers = [];
    for (const email of [fresh, taken]) {
      answers.push(
        await signUpAction({}, form({ email, password: PASSWORD, name: "Ada", next: "/dashboard/keys" })),
      );
    }
    expect(answers).toEqual([{ sentTo: fresh }, { sentTo: taken }]);
    expect(JSON.stringify(answers[0]).replace(fresh, "@")).toBe(
      JSON.stringify(answers[1]).replace(taken, "@"),
    );
    // No session either way: signing in waits for the link.
    expect(request.signedIn).toEqual([]);

    await settleBackground();
    expect(request.sent.find((m) => m.to === taken)?.subject).toMatch(/Someone tried to create an account/);
    const token = linkTo(fresh);
    expect(token).toBeDefined();

    // The link's button: the account is created and signed in, and the browser lands on `next`.
    expect(await redirectOf(() => confirmSignUpAction({}, form({ token: token! })))).toBe("/dashboard/keys");
    expect(request.signedIn).toHaveLength(1);
    // The same link again: a clear answer, no second sign-in.
    expect(await confirmSignUpAction({}, form({ token: token! }))).toEqual({
      error: expect.stringMatching(/already used/),
    });
    expect(await confirmSignUpAction({}, form({ token: "nope" }))).toEqual({
      error: expect.stringMatching(/not valid/),
    });
    expect(request.signedIn).toHaveLength(1);
  });

  test("a `next` that leaves the site lands on the dashboard", async () => {
    const email = `next-${process.pid}@example.com`;
    request.headers.set("x-forwarded-for", "198.51.100.2");
    await signUpAction({}, form({ email, password: PASSWORD, next: "/\t/evil.test" }));
    await settleBackground();
    expect(await redirectOf(() => confirmSignUpAction({}, form({ token: linkTo(email)! })))).toBe(
      "/dashboard",
    );
  });

  test("sending the link again answers the same for any address", async () => {
    request.headers.set("x-forwarded-for", "198.51.100.3");
    for (const email of [`again-${process.pid}@example.com`, `taken-${process.pid}@example.com`]) {
      expect(await resendSignUpLinkAction({}, form({ email }))).toEqual({ sentTo: email, resent: true });
    }
  });

  test("the sixth sign-up of an hour from one client address is refused on the form", async () => {
    request.headers.set("x-forwarded-for", "198.51.100.4");
    for (let i = 0; i < 5; i++) {
      expect(
        await signUpAction({}, form({ email: `rate${i}-${process.pid}@example.com`, password: PASSWORD })),
      ).toMatchObject({ sentTo: expect.any(String) });
    }
    expect(
      await signUpAction({}, form({ email: `rate5-${process.pid}@example.com`, password: PASSWORD })),
    ).toEqual({ error: expect.stringMatching(/Too many sign-ups/) });
  });
});
