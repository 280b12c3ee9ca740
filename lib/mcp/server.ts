import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { MAX_BODY_BYTES } from "@/lib/api/parse";
import type { Db } from "@/lib/db/client";
import { redactDbError } from "@/lib/db/errors";
import { AppError, assertNever, type ErrorCode, zodValidationError } from "@/lib/errors";
import { readStreamCapped } from "@/lib/streams/read-capped";
import { answerBadParamsAsInvalidParams } from "./invalid-params";
import { listEntry, MCP_TOOLS, type McpContext } from "./tools";

const MCP_SERVER_INFO = { name: "findable", version: "1.0.0" };

const byName = new Map(MCP_TOOLS.map((t) => [t.name, t]));

/**
 * How each error code reaches an MCP client. Every code is a tool error (isError: true) the model can
 * read and act on; none is a JSON-RPC protocol error, because the call itself was well formed. The
 * switch is exhaustive so a new code must be placed here; `retryable` tells the model whether trying
 * again later can help.
 */
function mcpErrorKind(code: ErrorCode): { retryable: boolean } {
  switch (code) {
    case "RATE_LIMITED":
    case "INTERNAL_ERROR":
      return { retryable: true };
    case "VALIDATION_ERROR":
    case "UNAUTHORIZED":
    case "FORBIDDEN_SCOPE":
    case "HTTPS_REQUIRED":
    case "INSUFFICIENT_CREDITS":
    case "NOT_FOUND":
    case "METHOD_NOT_ALLOWED":
      return { retryable: false };
    default:
      return assertNever(code);
  }
}

/** `_meta` of every answer: the request id, where MCP clients show a result's metadata. */
const metaOf = (requestId: string | undefined) => (requestId ? { _meta: { requestId } } : {});

function toolError(err: AppError, requestId?: string): CallToolResult {
  const body = {
    code: err.code,
    message: err.message,
    details: err.details,
    ...mcpErrorKind(err.code),
    ...(requestId ? { requestId } : {}),
  };
  // The text is what an assistant shows its user: the request id to quote to support goes there too.
  const quote = requestId ? `\nrequestId: ${requestId}` : "";
  return {
    isError: true,
    content: [{ type: "text", text: `${err.code}: ${err.message}\n${JSON.stringify(body.details)}${quote}` }],
    structuredContent: body,
    ...metaOf(requestId),
  };
}

/** Runs one tool call; the spec's error codes come back as MCP tool errors, never as protocol errors. */
async function callTool(ctx: McpContext, name: string, args: unknown): Promise<CallToolResult> {
  const def = byName.get(name);
  const { requestId } = ctx;
  if (!def) return toolError(new AppError("NOT_FOUND", `No tool named ${name}.`), requestId);
  try {
    const data = await def.run(ctx, args ?? {});
    return {
      content: [{ type: "text", text: JSON.stringify(data, null, 2) }],
      structuredContent: data as Record<string, unknown>,
      ...metaOf(requestId),
    };
  } catch (err) {
    if (err instanceof AppError) return toolError(err, requestId);
    if (err instanceof z.ZodError) return toolError(zodValidationError(err, "", "arguments"), requestId);
    console.error(`[mcp] ${requestId ?? ""} ${name} failed`, redactDbError(err));
    return toolError(
      new AppError(
        "INTERNAL_ERROR",
        "An internal error occurred. Retry, and quote the requestId if it persists.",
      ),
      requestId,
    );
  }
}

/**
 * A fresh MCP server for one authenticated account. The endpoint is stateless: every HTTP request
 * gets its own server and transport, so any instance can answer any request.
 */
function createMcpServer(ctx: McpContext): Server {
  // The low-level Server (not McpServer) so that bad arguments are validated by the REST routes' own
  // zod schemas and answered as VALIDATION_ERROR tool errors, exactly as the REST API words them.
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions:
      "Tools that start jobs are billed in credits (the cost is in each description) and return a jobId; use wait_for_job to get the result. Reads are free.",
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: MCP_TOOLS.map(listEntry),
    ...metaOf(ctx.requestId),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const token = request.params._meta?.progressToken;
    const progress =
      token === undefined
        ? undefined
        : (done: number, total: number, message: string) =>
            extra
              .sendNotification({
                method: "notifications/progress",
                params: { progressToken: token, progress: done, total, message },
              })
              .catch(() => {});
    return callTool(
      { ...ctx, signal: extra.signal, progress },
      request.params.name,
      request.params.arguments,
    );
  });
  answerBadParamsAsInvalidParams(server, ctx.requestId);
  return server;
}

type Message = { method?: string; params?: { _meta?: { progressToken?: unknown } } };

/** The JSON-RPC messages of a POST (a batch is several), or null when the body is not JSON. */
async function readMessages(req: Request): Promise<Message[] | null> {
  if (!req.body) return null;
  try {
    const text = await readStreamCapped(req.clone().body!, MAX_BODY_BYTES, () => new Error("too large"));
    const parsed = JSON.parse(text.toString("utf8")) as unknown;
    return (Array.isArray(parsed) ? parsed : [parsed]) as Message[];
  } catch {
    // The transport answers malformed or oversized bodies itself.
    return null;
  }
}

/**
 * How many requests an MCP POST counts as against the key's rate limit: each message of a JSON-RPC
 * batch counts, so a batch cannot carry more calls than the limit allows one at a time.
 */
export async function countMcpMessages(req: Request): Promise<number> {
  return Math.max(1, (await readMessages(req))?.length ?? 1);
}

/** Whether the POST holds a tools/call that asked for progress (`_meta.progressToken`). */
async function asksForProgress(req: Request): Promise<boolean> {
  const messages = await readMessages(req);
  return !!messages?.some((m) => m?.method === "tools/call" && m.params?._meta?.progressToken !== undefined);
}

/**
 * Answers one MCP POST (JSON-RPC over Streamable HTTP, no session). A call that asks for progress,
 * from a client that accepts `text/event-stream`, is answered as an event stream that carries
 * `notifications/progress` while it runs (wait_for_job); everything else is one JSON response.
 */
export async function handleMcpRequest(
  req: Request,
  ctx: { db: Db; accountId: string; apiKeyId?: string; requestId?: string },
): Promise<Response> {
  const stream =
    (req.headers.get("accept") ?? "").includes("text/event-stream") && (await asksForProgress(req));
  const server = createMcpServer(ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: !stream,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  await server.connect(transport);
  let response: Response;
  try {
    response = await transport.handleRequest(req);
  } catch (err) {
    await server.close();
    throw err;
  }
  if (!response.body || !response.headers.get("content-type")?.includes("text/event-stream")) {
    await server.close();
    return response;
  }
  // The stream outlives this function: close the server once the stream has ended or was dropped.
  const close = () => void server.close().catch(() => {});
  const body = response.body.pipeThrough(new TransformStream({ flush: close }));
  req.signal?.addEventListener("abort", close, { once: true });
  return new Response(body, { status: response.status, headers: response.headers });
}
