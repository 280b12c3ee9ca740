import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { OAuth2Client } from "google-auth-library";
import { requireRegisteredDomain } from "@/lib/accounts/domains";
import type { DbOrTx } from "@/lib/db/client";
import type { Connection } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import {
  authorizedClient,
  buildConsentUrl,
  exchangeCode,
  GOOGLE_ENV,
  type GoogleConfig,
  GoogleError,
  type GoogleTokens,
  readGoogleConfig,
  revokeGrant,
} from "@/lib/providers/google";
import {
  CONNECTIONS_PAGE,
  deleteConnection,
  type Env,
  findConnection,
  markRevoked,
  notConnected,
  openSecret,
  reconnectRequired,
  requireDataKey,
  saveConnection,
  updateSecret,
} from "./store";

const GOOGLE_CALLBACK_PATH = "/api/dashboard/google/callback";
/** The browser cookie that binds a consent round trip to the browser that started it. */
export const GOOGLE_STATE_COOKIE = "google_oauth_nonce";
const STATE_TTL_MS = 10 * 60 * 1000;

function requireGoogleConfig(env: Env): GoogleConfig {
  const config = readGoogleConfig(env);
  if (!config) {
    throw new AppError(
      "VALIDATION_ERROR",
      `Google connections are not available on this server: set ${GOOGLE_ENV.join(" and ")} (a Google OAuth client with the redirect URI <PUBLIC_BASE_URL>${GOOGLE_CALLBACK_PATH}).`,
      { reason: "google_not_configured", configure: [...GOOGLE_ENV] },
    );
  }
  return config;
}

/** The OAuth redirect URI: PUBLIC_BASE_URL (never a request's Host header), else where the server listens. */
function googleRedirectUri(env: Env): string {
  const base = env.PUBLIC_BASE_URL?.trim() || `http://${env.HOST || "localhost"}:${env.PORT || "3000"}`;
  return `${base.replace(/\/+$/, "")}${GOOGLE_CALLBACK_PATH}`;
}

function stateMac(key: Buffer, payload: string): string {
  return createHmac("sha256", key).update(`google-oauth-state:${payload}`).digest("base64url");
}

/**
 * Starts a consent round trip for the actor's account: the consent URL (its `state` signed, naming the
 * account and user and expiring in 10 minutes) and the nonce to set as a cookie in the same browser.
 */
export function startGoogleConnect(
  env: Env,
  who: { accountId: string; userId: string },
  now = Date.now(),
): { url: string; nonce: string } {
  const config = requireGoogleConfig(env);
  const key = requireDataKey(env);
  const nonce = randomBytes(16).toString("base64url");
  const payload = Buffer.from(
    JSON.stringify({ a: who.accountId, u: who.userId, n: nonce, e: now + STATE_TTL_MS }),
  ).toString("base64url");
  const state = `${payload}.${stateMac(key, payload)}`;
  return { url: buildConsentUrl(config, googleRedirectUri(env), state), nonce };
}

/** The state's account and user when its signature, expiry and nonce cookie all hold; else null. */
export function readGoogleState(
  env: Env,
  state: string,
  nonceCookie: string | undefined,
  now = Date.now(),
): { accountId: string; userId: string } | null {
  const [payload, mac] = state.split(".");
  if (!payload || !mac || !nonceCookie) return null;
  const expected = Buffer.from(stateMac(requireDataKey(env), payload));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const p = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
      a?: string;
      u?: string;
      n?: string;
      e?: number;
    };
    if (!p.a || !p.u || p.n !== nonceCookie || typeof p.e !== "number" || p.e < now) return null;
    return { accountId: p.a, userId: p.u };
  } catch {
    return null;
  }
}

/** The callback's code → tokens, stored sealed; a reconnect keeps the GA4 properties chosen before. */
export async function finishGoogleConnect(
  db: DbOrTx,
  env: Env,
  accountId: string,
  code: string,
): Promise<void> {
  const config = requireGoogleConfig(env);
  const { tokens, email } = await exchangeCode(config, googleRedirectUri(env), code);
  await saveConnection(db, env, { accountId, provider: "google", secret: tokens, label: email });
}

/** Disconnect: the grant is revoked at Google (best effort) and the stored tokens deleted. */
export async function disconnectGoogle(db: DbOrTx, env: Env, accountId: string): Promise<boolean> {
  const row = await findConnection(db, accountId, "google");
  if (!row) return false;
  const config = readGoogleConfig(env);
  if (config && row.status === "active") {
    try {
      await revokeGrant(config, openSecret<GoogleTokens>(env, row));
    } catch {
      // Unreadable tokens cannot be revoked; deleting them is what matters here.
    }
  }
  return deleteConnection(db, accountId, "google");
}

/**
 * Runs `fn` with an authorised Google client for the account: tokens refreshed (and stored) when they
 * expire within a minute. A grant Google refuses marks the connection revoked, and every later call is
 * answered "reconnect" from the database without asking Google again.
 */
export async function withGoogle<T>(
  db: DbOrTx,
  env: Env,
  accountId: string,
  what: string,
  fn: (client: OAuth2Client, config: GoogleConfig, row: Connection) => Promise<T>,
): Promise<T> {
  const config = requireGoogleConfig(env);
  const row = await findConnection(db, accountId, "google");
  if (!row) throw notConnected("google", what);
  if (row.status === "revoked") throw reconnectRequired("google", row.lastError);
  let tokens = openSecret<GoogleTokens>(env, row);
  const attempt = async (force: boolean) => {
    const { client, refreshed } = await authorizedClient(config, tokens, force);
    if (refreshed) {
      await updateSecret(db, env, row, refreshed);
      tokens = refreshed;
    }
    return fn(client, config, row);
  };
  try {
    try {
      return await attempt(false);
    } catch (err) {
      // An access token refused before its time (revoked, clock skew): one refresh, one more try.
      if (!(err instanceof GoogleError && err.code === "GOOGLE_UNAUTHENTICATED")) throw err;
      return await attempt(true);
    }
  } catch (err) {
    if (
      err instanceof GoogleError &&
      (err.code === "GOOGLE_GRANT_REVOKED" || err.code === "GOOGLE_UNAUTHENTICATED")
    ) {
      await markRevoked(db, row, err.message);
      throw reconnectRequired("google", err.message);
    }
    throw toAppError(err);
  }
}

/** Google's refusals as the service's errors; anything unexpected stays an internal error. */
function toAppError(err: unknown): unknown {
  if (!(err instanceof GoogleError)) return err;
  switch (err.code) {
    case "GOOGLE_PERMISSION_DENIED":
      return new AppError(
        "FORBIDDEN_SCOPE",
        `The connected Google account may not read this: ${err.message}`,
        {
          reason: "google_permission_denied",
          connectUrl: CONNECTIONS_PAGE,
        },
      );
    case "GOOGLE_NOT_FOUND":
      return new AppError("VALIDATION_ERROR", err.message, { reason: "google_property_not_found" });
    case "GOOGLE_INVALID_REQUEST":
      return new AppError("VALIDATION_ERROR", `Google refused the request: ${err.message}`, {
        reason: "google_invalid_request",
      });
    case "GOOGLE_RATE_LIMITED":
      return new AppError(
        "INTERNAL_ERROR",
        "Google's quota for this connection is used up for now; retry later.",
        {
          reason: "google_rate_limited",
        },
      );
    case "GOOGLE_GRANT_REVOKED":
    case "GOOGLE_UNAUTHENTICATED":
    case "GOOGLE_UNAVAILABLE":
      return new AppError("INTERNAL_ERROR", err.message, { reason: "google_unavailable" });
  }
}

/** Whether the domain is one of the account's, before any call to Google. */
export async function requireDomain(db: DbOrTx, accountId: string, domain: string): Promise<string> {
  return (await requireRegisteredDomain(db, accountId, domain)).hostname;
}
