import { ToolError } from "@/lib/errors";
import type { FetchErrorCode, GuardedResponse } from "./types";

/** A refused or failed outbound fetch; `code` is one of FETCH_ERROR_CODES. */
export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "FetchError";
  }
}

/**
 * Turns a fetch failure into the job-level error a customer sees. The fetcher's message is
 * already phrased for the customer, so the code carries over as it is.
 */
export function toToolError(err: unknown): ToolError {
  if (err instanceof ToolError) return err;
  if (err instanceof FetchError) return new ToolError(err.code, err.message);
  return new ToolError("FETCH_FAILED", "The page could not be fetched because of an unexpected error.");
}

/** Fails with HTTP_ERROR unless the response is 2xx, for tools that cannot work from an error page. */
export function requireOk(res: GuardedResponse): GuardedResponse {
  if (res.status >= 200 && res.status < 300) return res;
  throw new ToolError(
    "HTTP_ERROR",
    `${res.finalUrl} answered HTTP ${res.status}; the page must return a 2xx status to be analysed.`,
  );
}
