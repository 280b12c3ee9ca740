// next-auth's own routes with the app's guard, driven through Auth.js with a real signed session cookie: its
// sign-out ends the session on the server, its HTML pages carry CSP and framing headers, and an OAuth
// callback's state is accepted once.
import { Auth, type AuthConfig } from "@auth/core";
import { encode } from "@auth/core/jwt";
import { describe, expect } from "vitest";
import { accountCookieOptions } from "@/lib/auth/cookies";
import { authOptions } from "@/lib/auth/options";
import { guardAuthRoute } from "@/lib/auth/route-guard";
import { signUp } from "@/lib/dashboard/signup";
import type { DbHandle } from "@/lib/db/client";
import { dbTest } from "@/test/support/fixtures";

const test = dbTest;
let handle: DbHandle;
let config: AuthConfig;
const SECRET = "test-secret-test-secret-test-secret-0123";
const SESSION = "authjs.session-token";
const BASE = "http://localhost/api/authjs";

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  config = {
    ...(authOptions(handle.db) as AuthConfig),
    secret: SECRET,
    trustHost: true,
    basePath: "/api/authjs",
  };
});

let inner = 0;
const route = () =>
  guardAuthRoute(
    async (req: Request) => {
      inner++;
      return Auth(req, config);
    },
    { db: async () => handle.db, basePath: "/api/authjs", signInPage: "/login" },
  );

const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");

async function sessionUser(cookie: string): Promise<string | undefined> {
  const res = await Auth(
    new Request(`${BASE}/session`, { headers: { cookie: `${SESSION}=${cookie}` } }),
    config,
  );
  return ((await res.json()) as { user?: { id?: string } } | null)?.user?.id;
}

describe("next-auth's sign-out", () => {
  test("ends the session on the server, not only in the browser", async () => {
    const { user } = await signUp(handle.db, {
      email: `signout-${process.pid}@example.com`,
      password: "correct horse battery",
    });
    const token = await encode({ token: { sub: user.id, sv: 0 }, secret: SECRET, salt: SESSION });
    expect(await sessionUser(token)).toBe(user.id);

    const csrf = await Auth(new Request(`${BASE}/csrf`), config);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await route()(
      new Request(`${BASE}/signout`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: `${cookiesOf(csrf)}; ${SESSION}=${token}`,
        },
        body: new URLSearchParams({ csrfToken }).toString(),
      }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("set-cookie")).toMatch(new RegExp(`${SESSION}=;`));
    // A copy of the cookie kept by an attacker (or another tab) no longer signs in.
    expect(await sessionUser(token)).toBeUndefined();
  });
});

describe("next-auth's HTML pages", () => {
  test.each(["/signout", "/error?error=Configuration", "/error?error=AccessDenied"])(
    "%s carries the CSP and may not be framed",
    async (path) => {
      const res = await route()(new Request(`${BASE}${path}`));
      expect(res.headers.get("content-type")).toMatch(/text\/html/);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      // The page's own markup is untouched.
      expect(await res.text()).toMatch(/<html/i);
    },
  );

  test("JSON answers are left as they are", async () => {
    const res = await route()(new Request(`${BASE}/providers`));
    expect(res.headers.get("content-type")).toMatch(/json/);
    expect(res.headers.get("content-security-policy")).toBeNull();
  });
});

describe("OAuth state", () => {
  test.each([
    ["a callback by redirect (GET)", "GET"],
    ["a callback by form_post (POST)", "POST"],
  ])("%s is processed once; its replay is refused before next-auth sees it", async (_name, method) => {
    const state = `state-${method}-${process.pid}-${Math.random().toString(36).slice(2)}`;
    const request = () =>
      method === "GET"
        ? new Request(`${BASE}/callback/google?state=${state}&code=4%2Fabc`)
        : new Request(`${BASE}/callback/google`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ state, code: "4/abc" }).toString(),
          });
    const before = inner;
    const first = await route()(request());
    expect(inner).toBe(before + 1);
    expect(first.headers.get("location") ?? "").not.toContain("oauth-replayed");
    const replay = await route()(request());
    expect(inner).toBe(before + 1);
    expect(replay.status).toBe(303);
    expect(replay.headers.get("location")).toBe("/login?error=oauth-replayed");
    // Another state is still welcome.
    await route()(new Request(`${BASE}/callback/google?state=${state}-other&code=x`));
    expect(inner).toBe(before + 2);
  });

  test("other routes are not counted", async () => {
    const before = inner;
    await route()(new Request(`${BASE}/session?state=x`));
    await route()(new Request(`${BASE}/session?state=x`));
    expect(inner).toBe(before + 2);
  });
});

test("the active-account cookie is Secure in production, and httpOnly and SameSite=Lax always", () => {
  expect(accountCookieOptions({ NODE_ENV: "production" })).toEqual({
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: true,
  });
  expect(accountCookieOptions({ NODE_ENV: "development" }).secure).toBe(false);
});
