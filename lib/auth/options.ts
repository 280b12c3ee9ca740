// next-auth's configuration: email + password (Credentials), and GitHub / Google when their environment
// variables are set. Sessions are JWTs (Credentials requires it); the adapter stores OAuth users and their
// links. The active account and role are not in the token: lib/auth/session reads them from memberships on
// every request. Kept apart from the NextAuth() call (lib/auth/config) so tests can drive it through Auth.js.

import { CredentialsSignin } from "@auth/core/errors";
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import type { NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import Google from "next-auth/providers/google";
import { createAccount } from "@/lib/accounts/accounts";
import { clientIp } from "@/lib/api/https";
import { SignInThrottledError } from "@/lib/dashboard/sign-in-throttle";
import { completeSignUp, SignUpLinkClosed } from "@/lib/dashboard/sign-up-links";
import { verifyCredentials } from "@/lib/dashboard/signup";
import type { Db } from "@/lib/db/client";
import { authAccounts, authSessions, authVerificationTokens, users } from "@/lib/db/schema";
import { authLogger } from "./logger";
import { endAllSessions, sessionVersionCallback } from "./session-version";

/** Sign-in refused because of too many failures: wait, or sign in from another network (next-auth passes `code` through). */
export class SignInThrottled extends CredentialsSignin {
  code = "rate_limited";
}

/** The provider that signs in a new user from their emailed sign-up link (lib/actions/confirm-sign-up). */
export const SIGN_UP_LINK_PROVIDER = "sign-up-link";

/** OAuth providers whose id and secret are configured. */
export function oauthProviders(): ("github" | "google")[] {
  const list: ("github" | "google")[] = [];
  if (process.env.AUTH_GITHUB_ID && process.env.AUTH_GITHUB_SECRET) list.push("github");
  if (process.env.AUTH_GOOGLE_ID && process.env.AUTH_GOOGLE_SECRET) list.push("google");
  return list;
}

export const AUTH_BASE_PATH = "/api/authjs";

/** The whole next-auth configuration for one database (tests drive it through Auth.js directly). */
export function authOptions(db: Db): NextAuthConfig {
  const providers: NextAuthConfig["providers"] = [
    Credentials({
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(credentials, request) {
        // The production server sets X-Forwarded-For to the client address it resolved (TRUST_PROXY).
        const ip = clientIp(request);
        const user = await verifyCredentials(db, credentials, { ip }).catch((err) => {
          if (err instanceof SignInThrottledError) throw new SignInThrottled();
          throw err;
        });
        return user ? { id: user.id, email: user.email, name: user.name } : null;
      },
    }),
    // The sign-up link is the credential: using it creates the user (once) and signs them in.
    Credentials({
      id: SIGN_UP_LINK_PROVIDER,
      name: "Sign-up link",
      credentials: { token: { type: "text" } },
      async authorize(credentials) {
        const token = typeof credentials?.token === "string" ? credentials.token.slice(0, 200) : "";
        const created = await completeSignUp(db, token).catch((err) => {
          if (err instanceof SignUpLinkClosed) return null;
          throw err;
        });
        return created ? { id: created.user.id, email: created.user.email, name: created.user.name } : null;
      },
    }),
  ];
  const oauth = oauthProviders();
  if (oauth.includes("github")) providers.push(GitHub);
  if (oauth.includes("google")) providers.push(Google);
  return {
    // The adapter's generic wants one driver's database type; ours is either PGlite or postgres.js.
    adapter: DrizzleAdapter(
      db as never,
      {
        usersTable: users,
        accountsTable: authAccounts,
        sessionsTable: authSessions,
        verificationTokensTable: authVerificationTokens,
        // Our users table has extra columns (password hash, createdAt) the adapter's types do not expect.
      } as never,
    ),
    // Auth.js's own routes (sign-in, callbacks, CSRF, session, sign-out) live under /api/authjs, so the older
    // interface's /api/auth/me is ours. OAuth apps register /api/authjs/callback/<provider>.
    basePath: AUTH_BASE_PATH,
    session: { strategy: "jwt", maxAge: 7 * 24 * 60 * 60 },
    pages: { signIn: "/login" },
    providers,
    logger: authLogger,
    callbacks: {
      // Every request: a token whose session version is behind the user's (signed out, password changed) ends.
      jwt: sessionVersionCallback(db),
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        return session;
      },
    },
    events: {
      // next-auth's own sign-out (POST /api/authjs/signout) only clears the cookie; a copy of the token would
      // keep working until it expired. Bumping the session version ends it on the server too.
      async signOut(message) {
        const userId = "token" in message ? message.token?.sub : undefined;
        if (userId) await endAllSessions(db, userId);
      },
      // The first OAuth sign-in creates the user (through the adapter): give them an account and the grant.
      async createUser({ user }) {
        if (user.email) await createAccount(db, { ownerEmail: user.email, name: user.name ?? undefined });
      },
    },
  };
}
