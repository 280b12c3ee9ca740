import type { Job, JobError, JobStatus } from "@/lib/db/schema";

/** The job as clients see it (GET /jobs/{id}, list items). */
export interface JobView {
  jobId: string;
  tool: string;
  status: JobStatus;
  result?: unknown;
  error?: JobError;
  creditsCharged: number;
  /** True when a failed job was refunded in full (the spec's field). */
  creditsRefunded: boolean;
  /** Credits given back: the whole charge of a failed job, or the failed engines' share of a completed one. */
  creditsRefundedAmount: number;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  expiresAt: string;
}

export const pollUrl = (jobId: string) => `/api/v1/jobs/${jobId}`;

export function toJobView(job: Job): JobView {
  return {
    jobId: job.id,
    tool: job.tool,
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
