import "./zod-messages";

export { AppError, type FieldIssue, notFound, validationError } from "./app-error";
export { assertNever, ERROR_CODES, type ErrorCode } from "./codes";
export {
  isJobFailureCode,
  JOB_FAILURE_CODES,
  type JobFailure,
  type JobFailureCode,
} from "./job-failures";
export { ToolError } from "./tool-error";
export {
  findUnsafeText,
  hasUnsafeText,
  parseValue,
  requireUuid,
  unsafeTextError,
  zodValidationError,
} from "./validation";
