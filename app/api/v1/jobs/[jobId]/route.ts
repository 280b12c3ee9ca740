import { ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";
import { requireUuid } from "@/lib/api/parse";
import { notFound } from "@/lib/errors";
import { getJob } from "@/lib/jobs/queries";
import { toJobView } from "@/lib/jobs/view";

// GET /api/v1/jobs/{jobId}: one of the account's jobs, with its result once completed
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: withApiKey<{ jobId: string }>(async ({ db, auth, params }) => {
    const job = await getJob(db, auth.accountId, requireUuid(params.jobId, "Job"));
    if (!job) throw notFound("Job");
    return ok(toJobView(job));
  }),
});
