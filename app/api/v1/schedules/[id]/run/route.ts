import { ApiResult } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { runScheduleRoute } from "@/lib/routes/schedules";
import { runScheduleNow } from "@/lib/schedules";

// POST /api/v1/schedules/{id}/run: a run now (202), billed like a scheduled run
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: implement(
    runScheduleRoute,
    async ({ db, auth, params, idempotencyKey }) =>
      new ApiResult(await runScheduleNow(db, auth.accountId, params.id, { idempotencyKey }), 202),
  ),
});
