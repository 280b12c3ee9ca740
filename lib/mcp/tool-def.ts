// The shape of an MCP tool and what its handler receives, apart from the tool list so the tool modules can
// import it without importing the list that imports them.
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { Db } from "@/lib/db/client";

/** What a tool handler may use: the authenticated account and the request's database. */
export interface McpContext {
  db: Db;
  accountId: string;
  /** The API key the call came with: bounds its concurrent waits. */
  apiKeyId?: string;
  signal?: AbortSignal;
  /** Reports progress of a long call (seconds waited of the allowed) when the client asked for it. */
  progress?: (done: number, total: number, message: string) => Promise<void>;
  /** The HTTP request's id (X-Request-Id): JSON-RPC bodies have no envelope, so answers carry it in `_meta`. */
  requestId?: string;
}

export interface McpToolDef {
  name: string;
  description: string;
  /** Validates the arguments (the same zod schema the REST route uses, where there is one). */
  input: z.ZodType;
  /** Arguments of the MCP edge only (idempotencyKey), merged into the listed input schema. */
  extraArgs?: z.ZodObject;
  annotations: ToolAnnotations;
  run(ctx: McpContext, args: unknown): Promise<unknown>;
}
