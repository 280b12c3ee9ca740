/**
 * The closed list of codes a failed job can carry (`data.error.code` of `GET /jobs/{jobId}`). ToolError and
 * the job service's failure path take only these. Which tool can end with which is in lib/tools/failures.ts
 * (every code here belongs to the runner or to at least one tool; the type check fails otherwise).
 */
/** The runner's own failures: any tool can end with these. */
export const RUNNER_FAILURE_CODES = [
  "TIMEOUT",
  "MEMORY_LIMIT",
  "INTERRUPTED",
  "QUEUE_TIMEOUT",
  "TOOL_UNAVAILABLE",
  "TOOL_FAILED",
] as const;

/** The guarded fetcher's failures (lib/fetch). */
export const FETCH_ERROR_CODES = [
  "INVALID_URL",
  "TARGET_FORBIDDEN",
  "DNS_ERROR",
  "CONNECT_ERROR",
  "FETCH_TIMEOUT",
  "TOO_MANY_REDIRECTS",
  "RESPONSE_TOO_LARGE",
  "FETCH_FAILED",
] as const;

/** Every way a DataForSEO call can fail, as the job's error code (lib/providers/dataforseo). */
export const DATAFORSEO_ERROR_CODES = [
  "DATAFORSEO_NOT_CONFIGURED",
  "DATAFORSEO_AUTH_FAILED",
  "DATAFORSEO_PAYMENT_REQUIRED",
  "DATAFORSEO_RATE_LIMITED",
  "DATAFORSEO_INVALID_REQUEST",
  "DATAFORSEO_NOT_FOUND",
  "DATAFORSEO_UPSTREAM_ERROR",
  "DATAFORSEO_SERVER_ERROR",
  "DATAFORSEO_UNREACHABLE",
  "DATAFORSEO_BAD_RESPONSE",
] as const;

export const JOB_FAILURE_CODES = [
  ...RUNNER_FAILURE_CODES,
  ...FETCH_ERROR_CODES,
  // Reading a page.
  "HTTP_ERROR",
  "NOT_HTML",
  "PAGE_TOO_COMPLEX",
  "ROBOTS_DISALLOWED",
  "NO_TEXT",
  "INSUFFICIENT_CONTENT",
  // Lab runs (Core Web Vitals).
  "PAGE_TIMEOUT",
  "PAGE_LOAD_FAILED",
  "BROWSER_UNAVAILABLE",
  "LIGHTHOUSE_FAILED",
  "ABORTED",
  // The AI engines.
  "ENGINES_FAILED",
  ...DATAFORSEO_ERROR_CODES,
] as const;
export type JobFailureCode = (typeof JOB_FAILURE_CODES)[number];

/** Why a job failed, as stored on the job and shown to the customer. */
export interface JobFailure {
  code: JobFailureCode;
  message: string;
}

const KNOWN = new Set<string>(JOB_FAILURE_CODES);

/** Whether a code read from outside the type system (another thread, a stored row) is one of the list. */
export function isJobFailureCode(code: unknown): code is JobFailureCode {
  return typeof code === "string" && KNOWN.has(code);
}
