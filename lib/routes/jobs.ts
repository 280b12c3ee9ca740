import { z } from "zod";
import { jobList, listJobsQuery } from "@/lib/jobs/list";
import { jobView } from "@/lib/jobs/view";
import { defineRoute } from "./contract";

/** GET /jobs/{jobId}: one of the account's jobs, with its result once completed. */
export const getJobRoute = defineRoute({
  method: "get",
  path: "/jobs/{jobId}",
  operationId: "getJob",
  tag: "Jobs",
  summary: "A job, with its result once completed",
  description:
    "One of the account's jobs. `result` is present once status is `completed` (its shape depends on `tool`); `error` once it is `failed`, with `creditsRefunded` true. A jobId that does not exist, is not a UUID, belongs to another account or was purged after 7 days is `NOT_FOUND`.",
  pathParams: [
    {
      name: "jobId",
      description: "The jobId a tool endpoint returned.",
      schema: z.uuid().transform((id) => id.toLowerCase()),
      example: "00000000-0000-4000-8000-000000000000",
      notFound: "Job",
    },
  ],
  // The document names the component `Job` (built with each tool's result schema); the handler answers a jobView.
  success: { status: 200, description: "The job.", data: { name: "Job", schema: jobView } },
  errors: ["NOT_FOUND"],
});

/** GET /jobs: the account's jobs, newest first; filters status and tool; cursor pagination. */
export const listJobsRoute = defineRoute({
  method: "get",
  path: "/jobs",
  operationId: "listJobs",
  tag: "Jobs",
  summary: "The account's jobs, newest first",
  description:
    "The account's jobs of the last 7 days, newest first, without results (GET /jobs/{jobId} has the result). Filter by `status` and `tool`; page with `cursor` (the previous page's `nextCursor`). Unknown or repeated query parameters are 400.",
  query: listJobsQuery,
  queryExample: { limit: "20" },
  success: { status: 200, description: "A page of jobs.", data: { name: "JobList", schema: jobList } },
  errors: ["VALIDATION_ERROR"],
});
