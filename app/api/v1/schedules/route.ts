import { ApiResult, ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { createScheduleRoute, listSchedulesRoute } from "@/lib/routes/schedules";
import { createSchedule, listSchedules } from "@/lib/schedules";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // GET /api/v1/schedules: the account's scheduled audits, newest first, cursor-paged
  GET: implement(listSchedulesRoute, async ({ db, auth, query }) =>
    ok(await listSchedules(db, auth.accountId, query)),
  ),
  // POST /api/v1/schedules: schedule an audit of a URL of a registered domain; 201 with its cost estimate
  POST: implement(
    createScheduleRoute,
    async ({ db, auth, body }) => new ApiResult(await createSchedule(db, auth.accountId, body), 201),
  ),
});
