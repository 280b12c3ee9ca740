import { z } from "zod";
import { JOB_STATUSES, type Job } from "@/lib/db/schema";
import { TOOL_NAMES, type ToolName } from "@/lib/tools/catalog";

/** The job as clients see it (GET /jobs/{id}, list items, MCP): the schemas, and the types inferred from them. */

const jobBase = {
  jobId: z.uuid(),
  tool: z.enum(TOOL_NAMES),
  status: z.enum(JOB_STATUSES),
  error: z
    .object({ code: z.string(), message: z.string() })
    .optional()
    .describe(
      "Present once status is failed, e.g. TOOL_UNAVAILABLE, FETCH_TIMEOUT, INTERRUPTED, PAGE_TOO_COMPLEX; each ends the job refunded.",
    ),
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

/** A job with its result once completed (the result's schema is the tool's; the documents name each). */
export const jobView = jobSummary.extend({
  result: z
    .unknown()
    .optional()
    .describe("Present once status is completed; the result schema of the job's tool."),
});

export type JobView = z.infer<typeof jobView>;

const pollUrlField = z.string().describe("/api/v1/jobs/<jobId>, also in the Location header.");
const createdStatus = z
  .enum(JOB_STATUSES)
  .describe(
    "`pending` for a new job; an idempotent replay (same Idempotency-Key and body) answers the job's current status.",
  );

/** The creation response of POST /audits (the spec's longer shape). */
export const auditsJobCreated = z.object({
  jobId: z.uuid(),
  tool: z.literal("audits"),
  status: createdStatus,
  creditsCharged: z.number().int(),
  pollUrl: pollUrlField,
});

/** The creation response of every other tool endpoint. */
export const jobCreated = z.object({
  jobId: z.uuid(),
  status: createdStatus,
  pollUrl: pollUrlField,
});

export const pollUrl = (jobId: string) => `/api/v1/jobs/${jobId}`;

export function toJobView(job: Job): JobView {
  return {
    jobId: job.id,
    // Jobs are only created for catalogue tools.
    tool: job.tool as ToolName,
    status: job.status,
    ...(job.status === "completed" ? { result: job.result } : {}),
    ...(job.status === "failed" && job.error ? { error: job.error } : {}),
    creditsCharged: job.creditsCharged,
    creditsRefunded: job.creditsRefunded,
    creditsRefundedAmount: job.creditsRefundedAmount,
    createdAt: job.createdAt.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    completedAt: job.completedAt?.toISOString() ?? null,
    expiresAt: job.expiresAt.toISOString(),
  };
}
