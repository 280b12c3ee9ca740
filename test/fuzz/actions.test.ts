// Crafted posts to every dashboard server action, through the real action functions and a real database: each
// answers a form error (or Next's redirect), never a thrown failure (a 500), and nothing logged carries the
// statement's parameters. Next's request APIs and next-auth's entry points are the only stand-ins.
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, vi } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { dbTest } from "@/test/support/fixtures";

const request = vi.hoisted(() => ({
  userId: null as string | null,
  cookies: new Map<string, string>(),
  headers: new Headers({ origin: "https://app.example", host: "app.example" }),
}));

vi.mock("next/headers", () => ({
  headers: async () => request.headers,
  cookies: async () => ({
    get: (name: string) =>
      request.cookies.has(name) ? { name, value: request.cookies.get(name) } : undefined,
    set: (name: string, value: string) => void request.cookies.set(name, value),
    delete: (name: string) => void request.cookies.delete(name),
  }),
}));
// next-auth's package entry needs Next's server runtime; the actions take only its error class from it.
vi.mock("next-auth", async () => ({ AuthError: (await import("@auth/core/errors")).AuthError }));
vi.mock("next/cache", () => ({ revalidatePath: () => {}, revalidateTag: () => {} }));
// next-auth's signIn checks the password through the app's own authorize (as the route does), then redirects.
vi.mock("@/lib/auth/config", async () => {
  const { redirect } = await import("next/navigation");
  const { CredentialsSignin } = await import("@auth/core/errors");
  const { getDb } = await import("@/lib/db/client");
  const { verifyCredentials } = await import("@/lib/dashboard/signup");
  const { SignInThrottledError } = await import("@/lib/dashboard/sign-in-throttle");
  const { SignInThrottled } = await import("@/lib/auth/options");
  return {
    auth: async () => (request.userId ? { user: { id: request.userId } } : null),
    signIn: async (
      provider: string,
      opts: { email?: string; password?: string; token?: string; redirectTo: string },
    ) => {
      if (provider === "sign-up-link") {
        const { completeSignUp, SignUpLinkClosed } = await import("@/lib/dashboard/sign-up-links");
        const created = await completeSignUp(await getDb(), opts.token ?? "").catch((err: unknown) => {
          if (err instanceof SignUpLinkClosed) return null;
          throw err;
        });
        if (!created) throw new CredentialsSignin();
      }
      if (provider === "credentials") {
        const user = await verifyCredentials(await getDb(), {
          email: opts.email,
          password: opts.password,
        }).catch((err: unknown) => {
          if (err instanceof SignInThrottledError) throw new SignInThrottled();
          throw err;
        });
        if (!user) throw new CredentialsSignin();
      }
      redirect(opts.redirectTo);
    },
    signOut: async (opts: { redirectTo: string }) => redirect(opts.redirectTo),
    handlers: {},
  };
});

const { setDbHandle } = await import("@/lib/db/client");
const { signUp } = await import("@/lib/dashboard/signup");
const { getActor } = await import("@/lib/dashboard/members");
const { acceptInviteAction } = await import("@/lib/actions/accept-invite");
const { addDomainAction } = await import("@/lib/actions/add-domain");
const { buyCreditsAction } = await import("@/lib/actions/buy-credits");
const { changePasswordAction } = await import("@/lib/actions/change-password");
const { connectPlausibleAction, setGa4PropertyAction, disconnectAction } = await import(
  "@/lib/actions/connections"
);
const { createInviteAction } = await import("@/lib/actions/create-invite");
const { launchToolAction } = await import("@/lib/actions/launch-tool");
const { oauthSignInAction } = await import("@/lib/actions/oauth-sign-in");
const { requestPasswordResetAction } = await import("@/lib/actions/request-password-reset");
const { resendVerificationAction } = await import("@/lib/actions/resend-verification");
const { resetPasswordAction } = await import("@/lib/actions/reset-password");
const keys = await import("@/lib/actions/keys");
const { signInAction } = await import("@/lib/actions/sign-in");
const { signOutAction } = await import("@/lib/actions/sign-out");
const { signUpAction } = await import("@/lib/actions/sign-up");
const { confirmSignUpAction } = await import("@/lib/actions/confirm-sign-up");
const { resendSignUpLinkAction } = await import("@/lib/actions/resend-sign-up-link");
const { switchAccountAction } = await import("@/lib/actions/switch-account");
const { changeMemberRoleAction, removeMemberAction, revokeInviteAction, removeDomainAction } = await import(
  "@/lib/actions/team"
);
const { verifyDomainAction } = await import("@/lib/actions/verify-domain");
const webhooks = await import("@/lib/actions/webhooks");

const test = dbTest;
let handle: DbHandle;
let ownerId: string;
let ownerEmail: string;

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  setDbHandle(handle);
  ownerEmail = `fuzz-owner-${process.pid}@example.com`;
  const { user } = await signUp(handle.db, { email: ownerEmail, password: "correct horse battery" });
  ownerId = user.id;
  request.userId = ownerId;
  const actor = await getActor(handle.db, ownerId);
  request.cookies.set("dash_account", actor!.accountId);
});
afterAll(async () => {
  setDbHandle(undefined);
});

/** Values a hostile client posts. `refused`: every action must answer them with a form error. */
const CRAFTED: { name: string; value: string; refused: boolean }[] = [
  { name: "a NUL byte", value: "ab\u0000cd", refused: true },
  { name: "an unpaired surrogate", value: "ab\ud800cd", refused: true },
  { name: "a CR/LF", value: "/dashboard\r\nSet-Cookie: x=1", refused: false },
  { name: "a tab", value: "/\t/evil.test", refused: false },
  { name: "a non-UUID id", value: "not-a-uuid", refused: false },
  { name: "SQL", value: "' or 1=1 --", refused: false },
  { name: "10,000 characters", value: "a".repeat(10_000), refused: false },
  { name: "an empty value", value: "", refused: false },
  { name: "an encoded redirect", value: "/%2F/evil.test", refused: false },
  { name: "a random UUID", value: randomUUID(), refused: false },
];

type Call = (fields: Record<string, string>) => Promise<unknown>;

// FormData holds USV strings: an unpaired surrogate arrives as U+FFFD, as it does from a browser's form post.
let postedForm = false;
function form(fields: Record<string, string>): FormData {
  postedForm = true;
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}
const viaForm =
  (action: (prev: never, form: FormData) => Promise<unknown>): Call =>
  (fields) =>
    action({} as never, form(fields));
const viaVoidForm =
  (action: (form: FormData) => Promise<unknown>): Call =>
  (fields) =>
    action(form(fields));

/** Every action, the fields it reads and a harmless value for each; `session`: run signed in. */
const ACTIONS: { name: string; call: Call; fields: Record<string, string>; answersState: boolean }[] = [
  {
    name: "sign-up",
    call: viaForm(signUpAction),
    fields: { email: "new@example.com", password: "correct horse battery", name: "Ada", next: "/dashboard" },
    answersState: true,
  },
  {
    name: "sign-up link",
    call: viaForm(confirmSignUpAction),
    fields: { token: "abc" },
    answersState: true,
  },
  {
    name: "sign-up link again",
    call: viaForm(resendSignUpLinkAction),
    fields: { email: "new@example.com", token: "" },
    answersState: true,
  },
  {
    name: "sign-in",
    call: viaForm(signInAction),
    fields: { email: "someone@example.com", password: "wrong password here", next: "/dashboard" },
    answersState: true,
  },
  {
    name: "OAuth sign-in",
    call: viaVoidForm(oauthSignInAction),
    fields: { provider: "google", next: "/dashboard" },
    answersState: false,
  },
  {
    name: "password reset request",
    call: viaForm(requestPasswordResetAction),
    fields: { email: "someone@example.com" },
    answersState: true,
  },
  {
    name: "password reset",
    call: viaForm(resetPasswordAction),
    fields: { token: "abc", password: "a brand new password" },
    answersState: true,
  },
  {
    name: "accept invite",
    call: viaVoidForm(acceptInviteAction),
    fields: { token: "abc" },
    answersState: false,
  },
  {
    name: "add domain",
    call: viaForm(addDomainAction),
    fields: { domain: "example.com" },
    answersState: true,
  },
  { name: "buy credits", call: viaForm(buyCreditsAction), fields: { packId: "small" }, answersState: true },
  {
    name: "change password",
    call: viaForm(changePasswordAction),
    fields: { currentPassword: "wrong password here", newPassword: "another long password" },
    answersState: true,
  },
  {
    name: "connect Plausible",
    call: viaForm(connectPlausibleAction),
    fields: { apiKey: "key", baseUrl: "https://plausible.io" },
    answersState: true,
  },
  {
    name: "GA4 property",
    call: viaForm(setGa4PropertyAction),
    fields: { domain: "example.com", property: "123" },
    answersState: true,
  },
  {
    name: "disconnect",
    call: viaForm(disconnectAction),
    fields: { provider: "plausible" },
    answersState: true,
  },
  {
    name: "invite",
    call: viaForm(createInviteAction),
    fields: { email: "invitee@example.com", role: "member" },
    answersState: true,
  },
  {
    name: "launch a tool",
    call: (f) => launchToolAction(f.tool ?? "", { url: f.url }),
    fields: { tool: "llms-txt", url: "https://example.com/" },
    answersState: false,
  },
  { name: "resend verification", call: viaForm(resendVerificationAction), fields: {}, answersState: true },
  {
    name: "create a key pair",
    call: (f) => keys.createKeyPairAction(f.name ?? ""),
    fields: { name: "tracking snippet" },
    answersState: true,
  },
  {
    name: "roll a key pair",
    call: (f) => keys.rollKeyPairAction(f.id ?? "", f.window ?? ""),
    fields: { id: randomUUID(), window: "24h" },
    answersState: true,
  },
  {
    name: "revoke a key pair",
    call: (f) => keys.revokeKeyPairAction(f.id ?? ""),
    fields: { id: randomUUID() },
    answersState: true,
  },
  {
    name: "switch account",
    call: viaVoidForm(switchAccountAction),
    fields: { accountId: randomUUID() },
    answersState: false,
  },
  {
    name: "change a member's role",
    call: viaForm(changeMemberRoleAction),
    fields: { userId: randomUUID(), role: "admin" },
    answersState: true,
  },
  {
    name: "remove a member",
    call: viaForm(removeMemberAction),
    fields: { userId: randomUUID() },
    answersState: true,
  },
  {
    name: "revoke an invitation",
    call: viaForm(revokeInviteAction),
    fields: { inviteId: randomUUID() },
    answersState: true,
  },
  {
    name: "remove a domain",
    call: viaForm(removeDomainAction),
    fields: { domain: "example.com", confirm: "example.com" },
    answersState: true,
  },
  {
    name: "verify a domain",
    call: viaForm(verifyDomainAction),
    fields: { domain: "example.com" },
    answersState: true,
  },
  {
    name: "create a webhook",
    call: (f) => webhooks.createWebhookAction({}, form({ url: f.url ?? "", events: f.events ?? "" })),
    fields: { url: "https://hooks.example.com/x", events: "job.completed" },
    answersState: true,
  },
  {
    name: "rotate a webhook secret",
    call: (f) => webhooks.rotateWebhookAction(f.id ?? ""),
    fields: { id: randomUUID() },
    answersState: true,
  },
  {
    name: "delete a webhook",
    call: (f) => webhooks.deleteWebhookAction(f.id ?? ""),
    fields: { id: randomUUID() },
    answersState: true,
  },
  {
    name: "enable a webhook",
    call: (f) => webhooks.enableWebhookAction(f.id ?? ""),
    fields: { id: randomUUID() },
    answersState: true,
  },
  {
    name: "test a webhook",
    call: (f) => webhooks.testWebhookAction(f.id ?? ""),
    fields: { id: randomUUID() },
    answersState: true,
  },
  {
    name: "redeliver",
    call: (f) => webhooks.redeliverAction(f.id ?? "", f.deliveryId ?? ""),
    fields: { id: randomUUID(), deliveryId: randomUUID() },
    answersState: true,
  },
  {
    name: "credits-low threshold",
    call: (f) => webhooks.setCreditsLowThresholdAction({}, form(f)),
    fields: { threshold: "20" },
    answersState: true,
  },
  {
    name: "dismiss a notice",
    call: (f) => webhooks.dismissNoticeAction(f.id ?? ""),
    fields: { id: randomUUID() },
    answersState: true,
  },
  {
    name: "create a legacy token",
    call: (f) => webhooks.createLegacyTokenAction({}, form(f)),
    fields: { name: "ci" },
    answersState: true,
  },
  {
    name: "revoke a legacy token",
    call: (f) => webhooks.revokeLegacyTokenAction(f.id ?? ""),
    fields: { id: randomUUID() },
    answersState: true,
  },
  // Last: it ends the session the other actions run in.
  { name: "sign out", call: () => signOutAction(), fields: {}, answersState: false },
];

/** What a call came to: an answer, Next's redirect, or a failure (what the browser would see as a 500). */
async function outcome(call: () => Promise<unknown>) {
  try {
    return { kind: "answer" as const, value: await call() };
  } catch (err) {
    const digest = (err as { digest?: unknown }).digest;
    if (typeof digest === "string" && digest.startsWith("NEXT_REDIRECT")) {
      return { kind: "redirect" as const, to: digest.split(";")[2] ?? "" };
    }
    return { kind: "failure" as const, error: err };
  }
}

// Drizzle's failed-query message lists the parameters after "params:"; a bcrypt hash starts with $2.
const LEAKS = [/params:/i, /Failed query/i, /\$2[aby]\$\d\d\$/];

describe.each(ACTIONS)("$name", ({ call, fields, answersState }) => {
  const cases = Object.keys(fields).length ? Object.keys(fields) : ["(no field)"];
  test.each(cases)("crafted %s: a form error, never a failure, nothing leaked to the log", async (field) => {
    const logged: string[] = [];
    const spies = (["error", "warn", "info", "log"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        logged.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a))).join(" "));
      }),
    );
    try {
      for (const crafted of CRAFTED) {
        request.userId = ownerId;
        postedForm = false;
        const result = await outcome(() => call({ ...fields, [field]: crafted.value }));
        expect(result.kind, `${crafted.name}: ${String((result as { error?: unknown }).error)}`).not.toBe(
          "failure",
        );
        const arrived = !(postedForm && crafted.value.includes("\ud800"));
        if (crafted.refused && arrived && answersState && field !== "(no field)") {
          expect(result.kind, crafted.name).toBe("answer");
          const value = (result as { value: Record<string, unknown> }).value;
          expect(value.error ?? value.message, `${crafted.name} refused`).toBeTruthy();
        }
        if (result.kind === "redirect") {
          expect(new URL(result.to, "https://app.example").origin).toBe("https://app.example");
          // biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
          expect(result.to).not.toMatch(/[\r\n\t\u0000]/);
        }
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    for (const line of logged) {
      for (const leak of LEAKS) expect(line).not.toMatch(leak);
      expect(line).not.toContain("\u0000");
    }
  });
});

test("a database failure inside an action is logged without its parameters and answers no detail", async () => {
  const { createActionClient, ActionFailedError } = await import("@/lib/actions/client");
  const { z } = await import("zod");
  const { sql } = await import("drizzle-orm");
  const client = createActionClient({
    requestHeaders: async () => request.headers,
    requireActor: async () => {
      throw new Error("unused");
    },
    trustedOrigins: () => [],
  });
  const hash = "$2b$12$abcdefghijklmnopqrstuuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const action = client.publicAction({ input: z.object({}), refused: () => ({}) }, async () =>
    handle.db.execute(sql`select 1/0 where ${hash}::text = ${hash}::text`),
  );
  const error = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    const thrown = await action({}).then(
      () => null,
      (e: unknown) => e,
    );
    expect(thrown).toBeInstanceOf(ActionFailedError);
    expect(String((thrown as Error).message)).not.toContain(hash);
    const logged = error.mock.calls.flat().map(String).join(" ");
    expect(logged).toContain("division by zero");
    expect(logged).not.toContain(hash);
  } finally {
    error.mockRestore();
  }
});

test("an invitation opened by another signed-in address is refused with its own message", async () => {
  const { createInvite } = await import("@/lib/dashboard/invites");
  const owner = (await getActor(handle.db, ownerId))!;
  const { token } = await createInvite(handle.db, owner, {
    email: "someone-else@example.com",
    role: "member",
  });
  request.userId = ownerId;
  const result = await outcome(() => acceptInviteAction(form({ token })));
  expect(result).toEqual({ kind: "redirect", to: `/invite/${token}?error=other-address` });
});

test("an error that quotes a failed statement in its own text is logged without the values", async () => {
  const { createActionClient, ActionFailedError } = await import("@/lib/actions/client");
  const { z } = await import("zod");
  const client = createActionClient({
    requestHeaders: async () => request.headers,
    requireActor: async () => {
      throw new Error("unused");
    },
    trustedOrigins: () => [],
  });
  const hash = "$2b$12$abcdefghijklmnopqrstuuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const action = client.publicAction({ input: z.object({}), refused: () => ({}) }, async () => {
    throw new Error(`sign-up failed: Failed query: insert into users values ($1, $2)\nparams: a@b.c,${hash}`);
  });
  const error = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    await expect(action({})).rejects.toBeInstanceOf(ActionFailedError);
    const logged = error.mock.calls.flat().map(String).join(" ");
    expect(logged).toContain("sign-up failed");
    expect(logged).not.toContain(hash);
    expect(logged).not.toContain("a@b.c");
  } finally {
    error.mockRestore();
  }
});
