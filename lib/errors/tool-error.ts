import type { JobFailureCode } from "./job-failures";

/**
 * Why a job failed, as the customer reads it on GET /jobs/{jobId}: a code from the closed list of job failure
 * codes (a fetch code such as FETCH_TIMEOUT, or one of the tools' own: HTTP_ERROR, NOT_HTML, TOOL_UNAVAILABLE,
 * TIMEOUT…) and a message. Thrown by tools and the fetch layer; the runner fails the job with it and refunds.
 * It is not a request error: the request that created the job already succeeded.
 */
export class ToolError extends Error {
  constructor(
    readonly code: JobFailureCode,
    message: string,
  ) {
    super(message);
    this.name = "ToolError";
  }
}
