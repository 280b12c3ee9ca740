import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { listRuns } from "@/lib/monitors";
import { listMonitorRunsRoute } from "@/lib/routes/monitors";

// GET /api/v1/monitors/{id}/runs: the monitor's runs with their answers, newest first, cursor-paged
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: implement(listMonitorRunsRoute, async ({ db, auth, params, query }) =>
    ok(await listRuns(db, auth.accountId, params.id, query)),
  ),
});
