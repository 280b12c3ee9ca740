import type { ErrorCode } from "./codes";

export type ErrorDetails = Record<string, unknown>;

/**
 * A failure a service reports on purpose, with a code from the closed list. The message is written
 * for the customer; the edge (REST envelope, MCP tool error, dashboard form) decides how to show it.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
    /** Extra response headers an HTTP edge sends with it (Allow, Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "AppError";
  }
}

export interface FieldIssue {
  field: string;
  message: string;
}

export function validationError(message: string, issues: FieldIssue[], extra: ErrorDetails = {}): AppError {
  return new AppError("VALIDATION_ERROR", message, {
    ...(issues[0] ? { field: issues[0].field } : {}),
    issues,
    ...extra,
  });
}

export const notFound = (what = "Resource") => new AppError("NOT_FOUND", `${what} not found.`);
