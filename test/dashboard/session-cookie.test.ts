import { Auth, type AuthConfig } from "@auth/core";
import { CallbackRouteError, CredentialsSignin } from "@auth/core/errors";
import { encode } from "@auth/core/jwt";
import { expect, vi } from "vitest";
import { authLogger } from "@/lib/auth/logger";
import { authOptions } from "@/lib/auth/options";
import { endAllSessions } from "@/lib/auth/session-version";
import { signUp } from "@/lib/dashboard/signup";
import type { DbHandle } from "@/lib/db/client";
import { dbTest } from "@/test/support/fixtures";

// The app's own next-auth configuration, driven through Auth.js with a real signed session cookie.
const test = dbTest;
let handle: DbHandle;
let config: AuthConfig;
const SECRET = "test-secret-test-secret-test-secret-0123";
const COOKIE = "authjs.session-token";

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  config = {
    ...(authOptions(handle.db) as AuthConfig),
    secret: SECRET,
    trustHost: true,
    basePath: "/api/authjs",
  };
});

async function sessionWith(cookie: string) {
  const res = await Auth(
    new Request("http://localhost/api/authjs/session", { headers: { cookie: `${COOKIE}=${cookie}` } }),
    config,
  );
  return {
    body: (await res.json()) as { user?: { id?: string } } | null,
    setCookie: res.headers.get("set-cookie"),
  };
}

test("a session cookie stops working once the user signs out everywhere", async () => {
  const { user } = await signUp(handle.db, {
    email: `cookie-${process.pid}@example.com`,
    password: "correct horse battery",
  });
  // What next-auth stores at sign-in: the user id and the session version the jwt callback stamped.
  const cookie = await encode({ token: { sub: user.id, sv: 0 }, secret: SECRET, salt: COOKIE });
  const before = await sessionWith(cookie);
  expect(before.body?.user?.id).toBe(user.id);
  await endAllSessions(handle.db, user.id);
  const after = await sessionWith(cookie);
  expect(after.body).toBeNull();
  // …and the response clears the cookie.
  expect(after.setCookie).toMatch(new RegExp(`${COOKIE}=;`));
});

test("a refused sign-in is logged as one line without a stack; other failures without query parameters", () => {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  const error = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    authLogger.error(new CredentialsSignin());
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).not.toMatch(/\n|\s+at\s/);
    expect(error).not.toHaveBeenCalled();
    // A database failure inside authorize: Drizzle's message carries the statement and its parameters.
    const dbError = Object.assign(
      new Error(
        "Failed query: select * from users where email = $1\nparams: victim@example.com,hunter2-secret",
      ),
      {
        params: ["victim@example.com", "hunter2-secret"],
        cause: Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" }),
      },
    );
    authLogger.error(new CallbackRouteError(dbError as never));
    const logged = error.mock.calls.flat().map(String).join(" ");
    expect(logged).toContain("ECONNREFUSED");
    expect(logged).not.toContain("hunter2-secret");
    expect(logged).not.toContain("victim@example.com");
  } finally {
    warn.mockRestore();
    error.mockRestore();
  }
});
