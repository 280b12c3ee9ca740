import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { deleteScheduleRoute, getScheduleRoute, updateScheduleRoute } from "@/lib/routes/schedules";
import { deleteSchedule, getSchedule, updateSchedule } from "@/lib/schedules";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // GET /api/v1/schedules/{id}: one schedule
  GET: implement(getScheduleRoute, async ({ db, auth, params }) =>
    ok(await getSchedule(db, auth.accountId, params.id)),
  ),
  // PATCH /api/v1/schedules/{id}: change its time or cap, pause or resume it
  PATCH: implement(updateScheduleRoute, async ({ db, auth, params, body }) =>
    ok(await updateSchedule(db, auth.accountId, params.id, body)),
  ),
  // DELETE /api/v1/schedules/{id}: delete the schedule with its history
  DELETE: implement(deleteScheduleRoute, async ({ db, auth, params }) =>
    ok(await deleteSchedule(db, auth.accountId, params.id)),
  ),
});
