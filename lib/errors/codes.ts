/**
 * The closed vocabulary of errors a service may throw: the spec's codes plus HTTPS_REQUIRED and
 * METHOD_NOT_ALLOWED. Each edge (HTTP in lib/api, MCP in lib/mcp) maps every code by an exhaustive
 * switch, so adding a code here fails the build until each edge says how to answer it.
 */
export const ERROR_CODES = [
  "UNAUTHORIZED",
  "FORBIDDEN_SCOPE",
  "HTTPS_REQUIRED",
  "VALIDATION_ERROR",
  "INSUFFICIENT_CREDITS",
  "RATE_LIMITED",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "INTERNAL_ERROR",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** For the `default` branch of an exhaustive switch: a new case makes this a type error. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${String(value)}`);
}
