import { ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";
import { parseQuery } from "@/lib/api/parse";
import { listJobs, listJobsQuery } from "@/lib/jobs/list";

// GET /api/v1/jobs: the account's jobs, newest first; filters status and tool; cursor pagination
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: withApiKey(async ({ db, auth, url }) =>
    ok(await listJobs(db, auth.accountId, parseQuery(url, listJobsQuery))),
  ),
});
