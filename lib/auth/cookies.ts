// The dashboard's own cookie (next-auth sets and guards its session cookie itself).

/** The active account of a user who belongs to several. */
export const ACCOUNT_COOKIE = "dash_account";

/**
 * How the active-account cookie is set: never readable by scripts, not sent on cross-site posts, and, in
 * production, only over HTTPS (`Secure`).
 */
export function accountCookieOptions(env: Readonly<Record<string, string | undefined>> = process.env) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    path: "/",
    secure: env.NODE_ENV === "production",
  };
}
