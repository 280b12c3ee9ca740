import { z } from "zod";
import { ERROR_STATUS } from "@/lib/api/errors";

/** The error envelope (lib/api/envelope.ts answers it) and the MCP message, for the documents. */

export const errorCode = z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS]);

export const errorEnvelope = z.object({
  success: z.literal(false),
  error: z.object({
    code: errorCode,
    message: z.string(),
    details: z
      .record(z.string(), z.unknown())
      .describe(
        "INSUFFICIENT_CREDITS: required, available. VALIDATION_ERROR: field, issues [{field, message}], reason. RATE_LIMITED: retryAfterSeconds.",
      ),
  }),
  requestId: z.string().describe("Also in the X-Request-Id header; quote it to support."),
});

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
