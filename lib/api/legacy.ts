import type { Db } from "@/lib/db/client";
import { authenticateKey } from "@/lib/keys/keys";
import { authenticateLegacyToken, type LegacyAuth, touchLegacyToken } from "@/lib/keys/legacy-tokens";
import { type Method, methods, type RouteHandler } from "./handler";

/**
 * The older interface's credentials: `Authorization: Bearer <token>`, where the token is a legacy API token
 * (`lt_…`, made in the dashboard or the admin CLI) or the account's `<key>:<secret>` pair. Everything else
 * is v1's: request id, HTTPS rule, the key's rate limit and headers, the envelope.
 */
export async function authenticateBearer(
  db: Db,
  req: Request,
): Promise<{ auth: LegacyAuth | null; given: boolean; message?: string }> {
  const match = req.headers.get("authorization")?.match(/^Bearer\s+(\S+)\s*$/i);
  if (!match) {
    return {
      auth: null,
      given: false,
      message: "Send Authorization: Bearer <token> (a legacy API token, or <key>:<secret>).",
    };
  }
  const token = match[1]!;
  const colon = token.indexOf(":");
  const auth: LegacyAuth | null =
    colon > 0
      ? await authenticateKey(db, token.slice(0, colon), token.slice(colon + 1))
      : await authenticateLegacyToken(db, token);
  if (auth?.legacyTokenId) {
    // Best effort, like a key's last-used time.
    await touchLegacyToken(db, auth.legacyTokenId).catch(() => {});
  }
  return {
    auth,
    given: true,
    message: auth ? undefined : "The bearer token is not valid (wrong, rotated or revoked).",
  };
}

/** A legacy route's exports: like `methods`, with a 405 that authenticates the bearer token first. */
export function legacyMethods(
  handlers: Partial<Record<Exclude<Method, "OPTIONS">, RouteHandler>>,
): Record<Method, RouteHandler> {
  return methods(handlers, { authenticate: authenticateBearer });
}
