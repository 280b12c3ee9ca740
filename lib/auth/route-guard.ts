// What the app adds around next-auth's own routes (/api/authjs/*): an OAuth callback's `state` is accepted once,
// and next-auth's HTML pages carry the dashboard's framing and content rules.
import { createHash } from "node:crypto";
import { lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { oauthStatesUsed } from "@/lib/db/schema";
import { AUTH_PAGE_CSP } from "@/lib/security/headers";

/** How long a used state is remembered: next-auth's state cookie lives 15 minutes. */
const REMEMBER_MS = 24 * 60 * 60 * 1000;

/** True the first time `state` is presented; false for a replay. */
async function consumeOAuthState(db: DbOrTx, state: string): Promise<boolean> {
  const stateHash = createHash("sha256").update(state).digest("hex");
  const inserted = await db
    .insert(oauthStatesUsed)
    .values({ stateHash })
    .onConflictDoNothing()
    .returning({ stateHash: oauthStatesUsed.stateHash });
  // Forget states older than any cookie that could still carry them (callbacks are rare: one per sign-in).
  await db
    .delete(oauthStatesUsed)
    .where(lt(oauthStatesUsed.usedAt, sql`now() - make_interval(secs => ${REMEMBER_MS / 1000})`));
  return inserted.length > 0;
}

/** The `state` of an OAuth callback (`/callback/<provider>`, query or form_post body), or null for other routes. */
async function callbackState(req: Request, basePath: string): Promise<string | null> {
  const url = new URL(req.url);
  const match = url.pathname.match(new RegExp(`^${basePath}/callback/([^/]+)$`));
  if (!match || match[1] === "credentials") return null;
  const fromQuery = url.searchParams.get("state");
  if (fromQuery) return fromQuery;
  if (
    req.method === "POST" &&
    req.headers.get("content-type")?.includes("application/x-www-form-urlencoded")
  ) {
    const form = new URLSearchParams(await req.clone().text());
    return form.get("state");
  }
  return null;
}

/** A copy of `res` with the auth pages' CSP and framing headers when it is an HTML page. */
function withPageHeaders(res: Response): Response {
  if (!res.headers.get("content-type")?.includes("text/html")) return res;
  const headers = new Headers(res.headers);
  headers.set("content-security-policy", AUTH_PAGE_CSP);
  headers.set("x-frame-options", "DENY");
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

/**
 * Wraps one of next-auth's route handlers. A replayed OAuth callback (its state seen before) goes back to the
 * sign-in page with `error=oauth-replayed` and never reaches next-auth.
 */
export function guardAuthRoute<R extends Request>(
  handler: (req: R) => Promise<Response>,
  opts: { db: () => Promise<DbOrTx>; basePath: string; signInPage: string },
): (req: R) => Promise<Response> {
  return async (req) => {
    const state = await callbackState(req, opts.basePath);
    if (state !== null && !(await consumeOAuthState(await opts.db(), state))) {
      const to = new URL(`${opts.signInPage}?error=oauth-replayed`, req.url);
      return new Response(null, { status: 303, headers: { location: to.pathname + to.search } });
    }
    return withPageHeaders(await handler(req));
  };
}
