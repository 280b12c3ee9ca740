import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { pauseMonitor } from "@/lib/monitors";
import { pauseMonitorRoute } from "@/lib/routes/monitors";

// POST /api/v1/monitors/{id}/pause: no more scheduled runs until resumed
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: implement(pauseMonitorRoute, async ({ db, auth, params }) =>
    ok(await pauseMonitor(db, auth.accountId, params.id)),
  ),
});
