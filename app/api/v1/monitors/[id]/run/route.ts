import { ApiResult } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { runMonitorNow } from "@/lib/monitors";
import { runMonitorRoute } from "@/lib/routes/monitors";

// POST /api/v1/monitors/{id}/run: a run now (202), billed like a scheduled run
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: implement(
    runMonitorRoute,
    async ({ db, auth, params, idempotencyKey }) =>
      new ApiResult(await runMonitorNow(db, auth.accountId, params.id, { idempotencyKey }), 202),
  ),
});
