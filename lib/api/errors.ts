/** The spec's error codes, plus HTTPS_REQUIRED and METHOD_NOT_ALLOWED (documented additions). */
export const ERROR_STATUS = {
  UNAUTHORIZED: 401,
  FORBIDDEN_SCOPE: 403,
  HTTPS_REQUIRED: 403,
  VALIDATION_ERROR: 400,
  INSUFFICIENT_CREDITS: 402,
  RATE_LIMITED: 429,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INTERNAL_ERROR: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export type ErrorDetails = Record<string, unknown>;

/** An error the client is meant to see, with the spec's code and status. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }
}

export interface FieldIssue {
  field: string;
  message: string;
}

export function validationError(message: string, issues: FieldIssue[], extra: ErrorDetails = {}): ApiError {
  return new ApiError("VALIDATION_ERROR", message, {
    ...(issues[0] ? { field: issues[0].field } : {}),
    issues,
    ...extra,
  });
}

export const notFound = (what = "Resource") => new ApiError("NOT_FOUND", `${what} not found.`);
