import { z } from "zod";
import { ERROR_STATUS } from "@/lib/api/errors";

/** The error envelope (lib/api/envelope.ts answers it), for the documents and the tests. */

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
