import { ERROR_CODES } from "@/lib/errors";
import type { FuzzRequest } from "./requests";
import type { FuzzResponse } from "./send";

const REQUEST_ID = /^req_[A-Za-z0-9_-]{16}$/;

export interface Verdict {
  problem?: string;
  /** Jobs the request created (and charged): the credit check expects a spend for each, no other. */
  jobIds: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** The envelope: `{ success, data | error, requestId }` with the header's request id. */
function envelopeProblem(body: unknown, requestId: string, status: number): string | undefined {
  if (!isObject(body)) return "body is not a JSON object";
  if (body.requestId !== requestId) return `requestId ${String(body.requestId)} ≠ header ${requestId}`;
  if (body.success === true) return "data" in body ? undefined : "success without data";
  if (body.success !== false) return "no success flag";
  const error = body.error;
  if (!isObject(error)) return "failure without error";
  if (!ERROR_CODES.includes(error.code as never)) return `unknown error code ${String(error.code)}`;
  if (typeof error.message !== "string" || !error.message) return "error without message";
  if (status < 400) return `error envelope with status ${status}`;
  return undefined;
}

/** A JSON-RPC answer (one or a batch): no internal errors, and billed calls report their job. */
function rpcProblem(body: unknown, jobIds: string[]): string | undefined {
  const messages = Array.isArray(body) ? body : [body];
  for (const m of messages) {
    if (!isObject(m) || m.jsonrpc !== "2.0") return "not a JSON-RPC 2.0 message";
    if (isObject(m.error) && m.error.code === -32603)
      return `JSON-RPC internal error: ${String(m.error.message)}`;
    const result = m.result;
    if (!isObject(result)) continue;
    const structured = result.structuredContent;
    if (!isObject(structured)) continue;
    if (structured.code === "INTERNAL_ERROR") return "tool call answered INTERNAL_ERROR";
    if (result.isError !== true && typeof structured.jobId === "string" && !structured.idempotentReplayed) {
      jobIds.push(structured.jobId);
    }
  }
  return undefined;
}

/** Server-sent events of a streamed MCP answer: each `data:` line is a JSON-RPC message. */
function sseProblem(text: string, jobIds: string[]): string | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const problem = rpcProblem(parseJson(Buffer.from(line.slice(5).trim())), jobIds);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * The rules every answer keeps: below 500; a request id in `X-Request-Id`; the envelope carrying the
 * same id, except the raw documents and MCP's JSON-RPC answers (which must not be internal errors).
 */
export function judge(req: FuzzRequest, res: FuzzResponse, raw: boolean, mcp: boolean): Verdict {
  const jobIds: string[] = [];
  const verdict = (problem?: string): Verdict => ({ problem, jobIds });
  if (res.status >= 500) return verdict(`status ${res.status}: ${res.body.toString("utf8").slice(0, 300)}`);
  if (req.refusedByServer) return verdict(res.status === 431 ? undefined : `expected 431, got ${res.status}`);
  const requestId = String(res.headers["x-request-id"] ?? "");
  if (!REQUEST_ID.test(requestId)) return verdict(`no request id header (status ${res.status})`);
  if (req.method === "HEAD") return verdict(res.body.length ? "HEAD answered with a body" : undefined);
  const type = String(res.headers["content-type"] ?? "");
  if (mcp && type.includes("text/event-stream"))
    return verdict(sseProblem(res.body.toString("utf8"), jobIds));
  if (mcp && res.status === 202 && res.body.length === 0) return verdict();
  const body = parseJson(res.body);
  if (body === undefined) return verdict(`body is not JSON (status ${res.status}, ${type})`);
  if (raw && res.status === 200) return verdict(isObject(body) ? undefined : "raw document is not an object");
  if (isObject(body) && "success" in body) {
    const problem = envelopeProblem(body, requestId, res.status);
    const data = body.data;
    if (!problem && res.status === 202 && isObject(data) && typeof data.jobId === "string") {
      jobIds.push(data.jobId);
    }
    return verdict(problem);
  }
  if (mcp) return verdict(rpcProblem(body, jobIds));
  return verdict("not the envelope");
}
