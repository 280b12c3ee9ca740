import { OAuth2Client } from "google-auth-library";
import { GOOGLE_SCOPES, type GoogleConfig, GoogleError } from "./config";

/** The tokens a connection keeps (sealed at rest). */
export interface GoogleTokens {
  accessToken: string;
  refreshToken: string;
  /** Epoch ms when the access token expires. */
  expiresAt: number;
  scope?: string;
}

function createOAuthClient(config: GoogleConfig, redirectUri?: string): OAuth2Client {
  return new OAuth2Client({
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    redirectUri,
    endpoints: {
      oauth2AuthBaseUrl: config.authUrl,
      oauth2TokenUrl: config.tokenUrl,
      oauth2RevokeUrl: config.revokeUrl,
    },
  });
}

/** The consent page: offline access (a refresh token) and a fresh consent so that one is always issued. */
export function buildConsentUrl(config: GoogleConfig, redirectUri: string, state: string): string {
  return createOAuthClient(config, redirectUri).generateAuthUrl({
    access_type: "offline",
    prompt: "consent",
    include_granted_scopes: true,
    scope: [...GOOGLE_SCOPES],
    state,
  });
}

/** The email in the ID token's payload (Google signs it; it came straight from the token endpoint over TLS). */
function emailOf(idToken: string | null | undefined): string | null {
  const payload = idToken?.split(".")[1];
  if (!payload) return null;
  try {
    const email = (JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { email?: unknown })
      .email;
    return typeof email === "string" ? email : null;
  } catch {
    return null;
  }
}

/** Authorization code → tokens. A missing refresh token is refused: the connection could not outlive an hour. */
export async function exchangeCode(
  config: GoogleConfig,
  redirectUri: string,
  code: string,
): Promise<{ tokens: GoogleTokens; email: string | null }> {
  let res: { tokens: import("google-auth-library").Credentials };
  try {
    res = await createOAuthClient(config, redirectUri).getToken({ code });
  } catch (err) {
    throw toGoogleError(err);
  }
  const t = res.tokens;
  if (!t.access_token || !t.refresh_token) {
    throw new GoogleError(
      "GOOGLE_INVALID_REQUEST",
      "Google granted no offline access; connect again and allow it.",
    );
  }
  return {
    tokens: {
      accessToken: t.access_token,
      refreshToken: t.refresh_token,
      expiresAt: t.expiry_date ?? Date.now() + 3600_000,
      ...(t.scope ? { scope: t.scope } : {}),
    },
    email: emailOf(t.id_token),
  };
}

/**
 * An OAuth client holding `tokens`, refreshed now when the access token expires within a minute. Returns
 * the tokens to store when they changed; a refused refresh is GOOGLE_GRANT_REVOKED.
 */
export async function authorizedClient(
  config: GoogleConfig,
  tokens: GoogleTokens,
  /** Refresh even though the stored expiry is ahead (the API refused the token). */
  forceRefresh = false,
): Promise<{ client: OAuth2Client; refreshed: GoogleTokens | null }> {
  const client = createOAuthClient(config);
  client.setCredentials({
    access_token: tokens.accessToken,
    refresh_token: tokens.refreshToken,
    expiry_date: tokens.expiresAt,
  });
  if (!forceRefresh && tokens.expiresAt - Date.now() > 60_000) return { client, refreshed: null };
  try {
    const { credentials } = await client.refreshAccessToken();
    client.setCredentials({
      ...credentials,
      refresh_token: credentials.refresh_token ?? tokens.refreshToken,
    });
    return {
      client,
      refreshed: {
        accessToken: credentials.access_token ?? tokens.accessToken,
        refreshToken: credentials.refresh_token ?? tokens.refreshToken,
        expiresAt: credentials.expiry_date ?? Date.now() + 3600_000,
        ...(tokens.scope ? { scope: tokens.scope } : {}),
      },
    };
  } catch (err) {
    throw toGoogleError(err);
  }
}

/** Revokes the grant at Google (disconnect); a failure there does not keep the connection. */
export async function revokeGrant(config: GoogleConfig, tokens: GoogleTokens): Promise<boolean> {
  try {
    await createOAuthClient(config).revokeToken(tokens.refreshToken);
    return true;
  } catch {
    return false;
  }
}

/** gaxios / google-gax / googleapis errors as GoogleError codes. */
export function toGoogleError(err: unknown): GoogleError {
  if (err instanceof GoogleError) return err;
  const e = err as {
    response?: { status?: number; data?: { error?: unknown; error_description?: string } };
    status?: number;
    code?: number | string;
    message?: string;
  };
  const data = e.response?.data;
  const oauthError = typeof data?.error === "string" ? data.error : null;
  if (oauthError === "invalid_grant" || oauthError === "unauthorized_client") {
    return new GoogleError(
      "GOOGLE_GRANT_REVOKED",
      `Google no longer accepts this connection (${data?.error_description ?? oauthError}); reconnect Google.`,
    );
  }
  const status = e.response?.status ?? (typeof e.status === "number" ? e.status : undefined);
  // google-gax (GA4) reports gRPC codes: 7 permission denied, 16 unauthenticated, 5 not found, 8 exhausted.
  const grpc = typeof e.code === "number" && !status ? e.code : undefined;
  const message = (e.message ?? "Google answered with an error.").slice(0, 300);
  // No `cause`: the client library's error carries the request's headers, tokens included.
  const options = status !== undefined ? { status } : {};
  if (status === 401 || grpc === 16) {
    return new GoogleError("GOOGLE_UNAUTHENTICATED", `Google refused the access token: ${message}`, options);
  }
  if (status === 403 || grpc === 7) return new GoogleError("GOOGLE_PERMISSION_DENIED", message, options);
  if (status === 404 || grpc === 5) return new GoogleError("GOOGLE_NOT_FOUND", message, options);
  if (status === 429 || grpc === 8) return new GoogleError("GOOGLE_RATE_LIMITED", message, options);
  if (status === 400 || grpc === 3) return new GoogleError("GOOGLE_INVALID_REQUEST", message, options);
  return new GoogleError("GOOGLE_UNAVAILABLE", `Google could not answer: ${message}`, options);
}
