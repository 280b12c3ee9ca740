import type { Env } from "../env";
import { ProviderError } from "../provider-error";

export type { Env };

export const GOOGLE_ENV = ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"] as const;

/** Read-only access to Search Console and Analytics, and the account's email to show who connected. */
export const GOOGLE_SCOPES = [
  "https://www.googleapis.com/auth/webmasters.readonly",
  "https://www.googleapis.com/auth/analytics.readonly",
  "openid",
  "email",
] as const;

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  /** The consent page (GOOGLE_OAUTH_AUTH_URL). */
  authUrl: string;
  /** Code exchange and refresh (GOOGLE_OAUTH_TOKEN_URL). */
  tokenUrl: string;
  /** Token revocation on disconnect (GOOGLE_OAUTH_REVOKE_URL). */
  revokeUrl: string;
  /** Search Console API root (GOOGLE_SEARCH_CONSOLE_BASE_URL), with a trailing slash. */
  searchConsoleRootUrl: string;
  /** Analytics Data API origin (GOOGLE_ANALYTICS_DATA_BASE_URL). */
  analyticsDataUrl: URL;
}

const trimmed = (v: string | undefined) => v?.trim() || undefined;

/** The OAuth client and API addresses, or null when no Google OAuth client is configured here. */
export function readGoogleConfig(env: Env = process.env): GoogleConfig | null {
  const clientId = trimmed(env.GOOGLE_CLIENT_ID);
  const clientSecret = trimmed(env.GOOGLE_CLIENT_SECRET);
  if (!clientId || !clientSecret) return null;
  return {
    clientId,
    clientSecret,
    authUrl: trimmed(env.GOOGLE_OAUTH_AUTH_URL) ?? "https://accounts.google.com/o/oauth2/v2/auth",
    tokenUrl: trimmed(env.GOOGLE_OAUTH_TOKEN_URL) ?? "https://oauth2.googleapis.com/token",
    revokeUrl: trimmed(env.GOOGLE_OAUTH_REVOKE_URL) ?? "https://oauth2.googleapis.com/revoke",
    searchConsoleRootUrl: `${(trimmed(env.GOOGLE_SEARCH_CONSOLE_BASE_URL) ?? "https://searchconsole.googleapis.com").replace(/\/+$/, "")}/`,
    analyticsDataUrl: new URL(
      trimmed(env.GOOGLE_ANALYTICS_DATA_BASE_URL) ?? "https://analyticsdata.googleapis.com",
    ),
  };
}

/** Every way a Google call can fail, for the service to answer plainly. */
export type GoogleErrorCode =
  /** The refresh token was refused (revoked, expired, password change): only a new consent helps. */
  | "GOOGLE_GRANT_REVOKED"
  /** An API refused the access token (401): refresh once, then it is a revoked grant. */
  | "GOOGLE_UNAUTHENTICATED"
  /** The grant works but does not reach this property (403 from the API). */
  | "GOOGLE_PERMISSION_DENIED"
  | "GOOGLE_NOT_FOUND"
  | "GOOGLE_RATE_LIMITED"
  | "GOOGLE_INVALID_REQUEST"
  | "GOOGLE_UNAVAILABLE";

const RETRYABLE: readonly GoogleErrorCode[] = ["GOOGLE_RATE_LIMITED", "GOOGLE_UNAVAILABLE"];

export class GoogleError extends ProviderError<GoogleErrorCode> {
  constructor(code: GoogleErrorCode, message: string, options: { status?: number } = {}) {
    super("google", code, message, { retryable: RETRYABLE.includes(code), ...options });
    this.name = "GoogleError";
  }
}
