import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { resumeMonitor } from "@/lib/monitors";
import { resumeMonitorRoute } from "@/lib/routes/monitors";

// POST /api/v1/monitors/{id}/resume: scheduled runs again from the next slot
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: implement(resumeMonitorRoute, async ({ db, auth, params }) =>
    ok(await resumeMonitor(db, auth.accountId, params.id)),
  ),
});
