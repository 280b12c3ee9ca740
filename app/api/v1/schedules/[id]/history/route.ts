import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { scheduleHistoryRoute } from "@/lib/routes/schedules";
import { listHistory } from "@/lib/schedules";

// GET /api/v1/schedules/{id}/history: runs newest first, each with scores and changes against the run before
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: implement(scheduleHistoryRoute, async ({ db, auth, params, query }) =>
    ok(await listHistory(db, auth.accountId, params.id, query)),
  ),
});
