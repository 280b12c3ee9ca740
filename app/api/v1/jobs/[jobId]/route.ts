import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { notFound } from "@/lib/errors";
import { getJob } from "@/lib/jobs/queries";
import { toJobView } from "@/lib/jobs/view";
import { getJobRoute } from "@/lib/routes/jobs";

// GET /api/v1/jobs/{jobId}: one of the account's jobs, with its result once completed
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: implement(getJobRoute, async ({ db, auth, params }) => {
    const job = await getJob(db, auth.accountId, params.jobId);
    if (!job) throw notFound("Job");
    return ok(toJobView(job));
  }),
});
