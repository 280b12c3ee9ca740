import { z } from "zod";
import { ERROR_STATUS } from "@/lib/api/errors";
import { JOB_STATUSES, LEDGER_TYPES } from "@/lib/db/schema";
import { TOOL_NAMES } from "@/lib/tools/catalog";

/**
 * Zod schemas of the response shapes that have no zod schema of their own in the services (they are
 * TypeScript views). The OpenAPI document is generated from them, and the tests parse real responses with them.
 */

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

export const creditAccount = z.object({
  balance: z.number().int(),
  totalUsed: z.number().int(),
  recentTransactions: z
    .array(
      z.object({
        type: z.enum(LEDGER_TYPES),
        amount: z.number().int().describe("Negative for a spend."),
        description: z.string().describe("Names the operation that caused it."),
        balanceAfter: z.number().int(),
        jobId: z.uuid().nullable(),
        createdAt: z.iso.datetime(),
      }),
    )
    .max(20)
    .describe("The 20 most recent transactions, newest first; refunds of failed jobs included."),
});

const jobBase = {
  jobId: z.uuid(),
  tool: z.enum(TOOL_NAMES),
  status: z.enum(JOB_STATUSES),
  error: z
    .object({ code: z.string(), message: z.string() })
    .optional()
    .describe("Present once status is failed, e.g. TOOL_UNAVAILABLE, FETCH_TIMEOUT, INTERRUPTED."),
  creditsCharged: z.number().int(),
  creditsRefunded: z.boolean().describe("True when a failed job was refunded (in full)."),
  creditsRefundedAmount: z
    .number()
    .int()
    .describe(
      "Credits given back: the whole charge of a failed job; on a completed AI check, 100 per engine that failed (a partial refund, with `creditsRefunded` false); else 0.",
    ),
  createdAt: z.iso.datetime(),
  startedAt: z.iso.datetime().nullable(),
  completedAt: z.iso.datetime().nullable(),
  expiresAt: z.iso.datetime().describe("Jobs and results are kept for 7 days."),
};

/** A job without its result (list items). */
export const jobSummary = z.object(jobBase);

export const jobList = z.object({
  jobs: z.array(jobSummary),
  nextCursor: z.string().nullable().describe("Pass as cursor for the next page; null on the last page."),
});

/** The creation response of POST /audits (the spec's longer shape). */
export const auditsJobCreated = z.object({
  jobId: z.uuid(),
  tool: z.literal("audits"),
  status: z.literal("pending"),
  creditsCharged: z.number().int(),
  pollUrl: z.string().describe("/api/v1/jobs/<jobId>, also in the Location header."),
});

/** The creation response of every other tool endpoint. */
export const jobCreated = z.object({
  jobId: z.uuid(),
  status: z.literal("pending"),
  pollUrl: z.string().describe("/api/v1/jobs/<jobId>, also in the Location header."),
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
