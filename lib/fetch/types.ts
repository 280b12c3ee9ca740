/** Options of one guarded fetch. */
export interface GuardedFetchOptions {
  /** POST (for a provider's query API at a customer-chosen address) sends `body` and never follows a redirect. */
  method?: "GET" | "HEAD" | "POST";
  /** The request body of a POST. */
  body?: string;
  headers?: Record<string, string>;
  /** Whole request, redirects included. Default 15 000 ms. */
  timeoutMs?: number;
  /** Connection (DNS + TCP + TLS) timeout per hop. Default 5 000 ms. */
  connectTimeoutMs?: number;
  /** Body bytes kept at most; beyond it the fetch fails with RESPONSE_TOO_LARGE. Default 5 MiB. */
  maxBytes?: number;
  /** Redirect hops followed, each re-checked. Default 5. */
  maxRedirects?: number;
  /**
   * "manual" returns a redirect response as it is (its `location` header unread and unfollowed), for callers
   * that only need to know where a link points. Default "follow".
   */
  redirect?: "follow" | "manual";
  signal?: AbortSignal;
}

export interface RedirectHop {
  url: string;
  status: number;
  location: string;
}

export interface GuardedResponse {
  /** The URL asked for. */
  url: string;
  /** The URL that answered, after redirects. */
  finalUrl: string;
  status: number;
  /** Lower-cased header names; repeated headers (set-cookie) keep every value. */
  headers: Record<string, string[]>;
  redirects: RedirectHop[];
  /** The body decoded (gzip/deflate/br undone); UTF-8 unless the charset says otherwise. */
  body: Buffer;
  text(): string;
  /** Milliseconds from the first request to the last byte. */
  elapsedMs: number;
}

/**
 * Fetches a customer URL under the service's outbound rules. Throws FetchError with one of
 * the codes in FETCH_ERROR_CODES; never returns for a refused target.
 */
export type GuardedFetch = (url: string, options?: GuardedFetchOptions) => Promise<GuardedResponse>;

import { FETCH_ERROR_CODES } from "@/lib/errors/job-failures";

export { FETCH_ERROR_CODES };
export type FetchErrorCode = (typeof FETCH_ERROR_CODES)[number];
