import { randomBytes } from "node:crypto";
import { redactDbError } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";
import { httpStatus } from "./errors";

export function newRequestId(): string {
  return `req_${randomBytes(12).toString("base64url")}`;
}

/** A success answer: the handler's data, wrapped by `withApiKey` into the envelope. */
export class ApiResult<T = unknown> {
  constructor(
    readonly data: T,
    readonly status = 200,
    readonly headers: Record<string, string> = {},
  ) {}
}

export const ok = <T>(data: T, headers: Record<string, string> = {}) => new ApiResult(data, 200, headers);

// The text of each JSON answer, by its Response: the production server's lean mount writes it to the socket as
// is instead of reading it back through the Response's stream (lib/server/api-dispatch.ts).
const bodyTexts = new WeakMap<Response, string>();

/** The JSON text a Response made here carries, or undefined for any other Response. */
export function jsonBodyText(response: Response): string | undefined {
  return bodyTexts.get(response);
}

function jsonResponse(
  body: unknown,
  status: number,
  requestId: string,
  headers: Record<string, string> = {},
): Response {
  const text = JSON.stringify(body);
  const response = new Response(text, {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-request-id": requestId,
      ...headers,
    },
  });
  bodyTexts.set(response, text);
  return response;
}

export function successResponse(result: ApiResult, requestId: string, headers: Record<string, string> = {}) {
  return jsonResponse({ success: true, data: result.data, requestId }, result.status, requestId, {
    ...headers,
    ...result.headers,
  });
}

export function errorResponse(err: AppError, requestId: string, headers: Record<string, string> = {}) {
  return jsonResponse(
    { success: false, error: { code: err.code, message: err.message, details: err.details }, requestId },
    httpStatus(err.code),
    requestId,
    { ...headers, ...err.headers },
  );
}

/** Anything that is not an AppError is hidden behind INTERNAL_ERROR; the log keeps the cause. */
export function internalErrorResponse(err: unknown, requestId: string, headers: Record<string, string> = {}) {
  console.error(`[${requestId}] internal error`, redactDbError(err));
  return errorResponse(
    new AppError(
      "INTERNAL_ERROR",
      "An internal error occurred. Retry, and quote the requestId if it persists.",
    ),
    requestId,
    headers,
  );
}
