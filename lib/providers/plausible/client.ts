import type { GuardedFetch } from "@/lib/fetch/types";
import { ProviderError } from "../provider-error";
import { parseRetryAfter } from "../retry";

export const PLAUSIBLE_DEFAULT_BASE_URL = "https://plausible.io";

export type PlausibleErrorCode =
  | "PLAUSIBLE_AUTH_FAILED"
  | "PLAUSIBLE_INVALID_REQUEST"
  | "PLAUSIBLE_RATE_LIMITED"
  | "PLAUSIBLE_UNAVAILABLE";

const RETRYABLE: readonly PlausibleErrorCode[] = ["PLAUSIBLE_RATE_LIMITED", "PLAUSIBLE_UNAVAILABLE"];

export class PlausibleError extends ProviderError<PlausibleErrorCode> {
  constructor(
    code: PlausibleErrorCode,
    message: string,
    options: { status?: number; retryAfterMs?: number } = {},
  ) {
    super("plausible", code, message, { retryable: RETRYABLE.includes(code), ...options });
    this.name = "PlausibleError";
  }
}

/** Where a customer's Plausible answers, and the key that reads its stats. */
export interface PlausibleConfig {
  baseUrl: string;
  apiKey: string;
}

/**
 * A Plausible connection's settings. They are the customer's own (their key; the address of a self-hosted
 * instance, plausible.io by default), stored with the connection rather than in the server's environment.
 * Null without a key.
 */
export function readPlausibleConfig(stored: {
  apiKey?: string | null;
  baseUrl?: string | null;
}): PlausibleConfig | null {
  const apiKey = stored.apiKey?.trim();
  if (!apiKey) return null;
  return { apiKey, baseUrl: stored.baseUrl?.trim() || PLAUSIBLE_DEFAULT_BASE_URL };
}

/** A Stats API v2 query (POST /api/v2/query). */
export interface PlausibleQuery {
  site_id: string;
  metrics: string[];
  date_range: string | [string, string];
  dimensions?: string[];
  order_by?: [string, "asc" | "desc"][];
  pagination?: { limit: number; offset?: number };
}

export interface PlausibleAnswer {
  results: { metrics: number[]; dimensions: string[] }[];
}

function parseJson(text: string): { error?: unknown; results?: unknown } | null {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" ? (v as { error?: unknown; results?: unknown }) : null;
  } catch {
    return null;
  }
}

/**
 * One Stats API v2 query. The base URL is the customer's (self-hosted instances), so the call goes through
 * the guarded fetcher: public addresses only, no redirects followed, a time and size limit.
 */
export async function queryPlausible(
  fetcher: GuardedFetch,
  conn: PlausibleConfig,
  query: PlausibleQuery,
  signal?: AbortSignal,
): Promise<PlausibleAnswer> {
  const res = await fetcher(`${conn.baseUrl.replace(/\/+$/, "")}/api/v2/query`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${conn.apiKey}`,
      "content-type": "application/json",
      accept: "application/json",
    },
    body: JSON.stringify(query),
    timeoutMs: 20_000,
    maxBytes: 5 * 1024 * 1024,
    ...(signal ? { signal } : {}),
  });
  const body = parseJson(res.text());
  const message = typeof body?.error === "string" ? body.error.slice(0, 300) : `HTTP ${res.status}`;
  const status = { status: res.status };
  if (res.status === 401 || res.status === 403) {
    throw new PlausibleError("PLAUSIBLE_AUTH_FAILED", `Plausible refused the API key: ${message}`, status);
  }
  if (res.status === 429) {
    const retryAfterMs = parseRetryAfter({ get: (name) => res.headers[name]?.[0] ?? null });
    throw new PlausibleError("PLAUSIBLE_RATE_LIMITED", "Plausible's rate limit was reached.", {
      ...status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  if (res.status >= 400 && res.status < 500) {
    throw new PlausibleError("PLAUSIBLE_INVALID_REQUEST", `Plausible refused the query: ${message}`, status);
  }
  if (res.status !== 200 || !body || !Array.isArray(body.results)) {
    throw new PlausibleError("PLAUSIBLE_UNAVAILABLE", `Plausible could not answer (${message}).`, status);
  }
  return { results: body.results as PlausibleAnswer["results"] };
}
