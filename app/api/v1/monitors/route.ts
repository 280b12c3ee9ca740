import { ApiResult, ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { createMonitor, listMonitors } from "@/lib/monitors";
import { createMonitorRoute, listMonitorsRoute } from "@/lib/routes/monitors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // GET /api/v1/monitors: the account's monitors, newest first, cursor-paged
  GET: implement(listMonitorsRoute, async ({ db, auth, query }) =>
    ok(await listMonitors(db, auth.accountId, query)),
  ),
  // POST /api/v1/monitors: create a monitor on a registered domain; 201 with its cost estimate
  POST: implement(
    createMonitorRoute,
    async ({ db, auth, body }) => new ApiResult(await createMonitor(db, auth.accountId, body), 201),
  ),
});
