/** Every code runCoreWebVitals throws with; the runner shows code and message to the customer and refunds. */
export const CWV_ERROR_CODES = [
  "INVALID_URL",
  "TARGET_FORBIDDEN",
  "DNS_ERROR",
  "PAGE_TIMEOUT",
  "PAGE_LOAD_FAILED",
  "BROWSER_UNAVAILABLE",
  "LIGHTHOUSE_FAILED",
  "ABORTED",
] as const;
export type CwvErrorCode = (typeof CWV_ERROR_CODES)[number];

export class CwvError extends Error {
  constructor(
    readonly code: CwvErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "CwvError";
  }
}
