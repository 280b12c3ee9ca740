import { z } from "zod";
import { defineRoute } from "@/lib/routes/contract";
import { TOOL_NAMES } from "@/lib/tools/catalog";
import { MCP_TOOLS, mcpToolName } from "./tools";
import { WAITS_PER_KEY } from "./wait-slots";

export const jsonRpcMessage = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number()]).optional(),
    method: z.string().optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .describe("A JSON-RPC 2.0 message of the Model Context Protocol (or a batch of them).");

const billed = new Set(TOOL_NAMES.map(mcpToolName));
const quoted = (names: string[]) => names.map((n) => `\`${n}\``).join(", ");

/** POST /mcp: the hosted MCP server (stateless Streamable HTTP); same key, rate limit and billing as REST. */
export const mcpRoute = defineRoute({
  method: "post",
  path: "/mcp",
  operationId: "mcp",
  tag: "MCP",
  summary: "Hosted MCP server (Streamable HTTP, stateless)",
  description: `A Model Context Protocol server for AI assistants and agent frameworks, over Streamable HTTP in stateless mode with JSON responses (send \`Accept: application/json, text/event-stream\`). Same credentials, rate limit and credit billing as the REST API: each JSON-RPC message counts against the limit (a batch counts each of its messages), at most ${WAITS_PER_KEY} \`wait_for_job\` calls per key wait at once (more are \`RATE_LIMITED\` tool errors), and each tool costs what its endpoint costs. Tools: one per tool endpoint (${quoted([...billed])}), plus ${quoted(MCP_TOOLS.map((t) => t.name).filter((n) => !billed.has(n)))}. API errors come back as tool results with \`isError: true\`, text \`CODE: message\` and \`structuredContent\` \`{code, message, details}\`. Answers are JSON-RPC, not the envelope, except authentication and rate-limit errors, which are the envelope with their HTTP status.`,
  body: {
    name: "McpMessage",
    schema: jsonRpcMessage,
    example: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
    // The MCP transport reads the body itself (batches, notifications, JSON-RPC errors for bad messages).
    validation: "handler",
  },
  success: {
    status: 200,
    description: "The JSON-RPC response (202 with no body for a notification).",
    raw: { name: "McpResponse", schema: jsonRpcMessage },
  },
  errors: [],
});
