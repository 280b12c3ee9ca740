import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { listJobs } from "@/lib/jobs/list";
import { listJobsRoute } from "@/lib/routes/jobs";

// GET /api/v1/jobs: the account's jobs, newest first; filters status and tool; cursor pagination
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: implement(listJobsRoute, async ({ db, auth, query }) => ok(await listJobs(db, auth.accountId, query))),
});
