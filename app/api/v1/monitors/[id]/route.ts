import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { deleteMonitor, getMonitor, updateMonitor } from "@/lib/monitors";
import { deleteMonitorRoute, getMonitorRoute, updateMonitorRoute } from "@/lib/routes/monitors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // GET /api/v1/monitors/{id}: one monitor
  GET: implement(getMonitorRoute, async ({ db, auth, params }) =>
    ok(await getMonitor(db, auth.accountId, params.id)),
  ),
  // PATCH /api/v1/monitors/{id}: change the fields given
  PATCH: implement(updateMonitorRoute, async ({ db, auth, params, body }) =>
    ok(await updateMonitor(db, auth.accountId, params.id, body)),
  ),
  // DELETE /api/v1/monitors/{id}: delete the monitor with its runs and answers
  DELETE: implement(deleteMonitorRoute, async ({ db, auth, params }) =>
    ok(await deleteMonitor(db, auth.accountId, params.id)),
  ),
});
