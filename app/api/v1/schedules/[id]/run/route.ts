import { ApiResult } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { jobEvents } from "@/lib/jobs/events";
import { runScheduleRoute } from "@/lib/routes/schedules";
import { runScheduleNow } from "@/lib/schedules";

// POST /api/v1/schedules/{id}/run: a run now (202), billed like a scheduled run
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: implement(runScheduleRoute, async ({ db, auth, params, idempotencyKey }) => {
    const started = await runScheduleNow(db, auth.accountId, params.id, { idempotencyKey });
    // This process's runner starts the job at once (others hear of it through NOTIFY or their next poll).
    if (!started.replayed && started.jobId) jobEvents.emit("created", started.jobId);
    return new ApiResult(started, 202);
  }),
});
