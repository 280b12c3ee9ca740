import { assertNever, ERROR_CODES, type ErrorCode } from "@/lib/errors";

/** The HTTP status of each error code; the switch is exhaustive, so a new code must be mapped here. */
export function httpStatus(code: ErrorCode): number {
  switch (code) {
    case "VALIDATION_ERROR":
      return 400;
    case "UNAUTHORIZED":
      return 401;
    case "INSUFFICIENT_CREDITS":
      return 402;
    case "FORBIDDEN_SCOPE":
    case "HTTPS_REQUIRED":
      return 403;
    case "NOT_FOUND":
      return 404;
    case "METHOD_NOT_ALLOWED":
      return 405;
    case "RATE_LIMITED":
      return 429;
    case "INTERNAL_ERROR":
      return 500;
    default:
      return assertNever(code);
  }
}

export type { ErrorCode };

/** Every code with its status, for the OpenAPI document (derived from the switch above). */
export const ERROR_STATUS = Object.fromEntries(ERROR_CODES.map((code) => [code, httpStatus(code)])) as Record<
  ErrorCode,
  number
>;
