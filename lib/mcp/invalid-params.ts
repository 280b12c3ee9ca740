import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

type RequestHandler = (request: unknown, extra: unknown) => Promise<unknown>;

// The SDK's zod (classic or mini) throws its own error class: recognise it by its issue list.
const isZodError = (err: unknown): err is { issues: { path: PropertyKey[]; message: string }[] } =>
  typeof err === "object" &&
  err !== null &&
  !(err instanceof McpError) &&
  Array.isArray((err as { issues?: unknown }).issues);

/**
 * The SDK checks each request against its method's schema and, when the params do not fit (an
 * `initialize` without `protocolVersion`, a `tools/call` whose `name` is a number), lets the zod error
 * escape, which it answers as -32603 Internal error with the raw issue dump. That is the client's
 * mistake, so every registered handler, the SDK's own included, answers it as -32602 Invalid params
 * naming the fields (and the HTTP request's id). Call after the last setRequestHandler.
 */
export function answerBadParamsAsInvalidParams(server: Server, requestId?: string): void {
  // The handler map is private to the SDK; a test (test/mcp/invalid-params.test.ts) notices if it moves.
  const handlers = (server as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers;
  if (!(handlers instanceof Map)) throw new Error("MCP SDK: request handler map not found");
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (err) {
        if (!isZodError(err)) throw err;
        const issues = err.issues.map((i) => `${i.path.map(String).join(".") || "params"}: ${i.message}`);
        // A protocol error has no result to carry `_meta`: its message and data name the request id.
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid ${method} request: ${issues.join("; ")}${requestId ? ` (requestId ${requestId})` : ""}`,
          requestId ? { requestId } : undefined,
        );
      }
    });
  }
}
