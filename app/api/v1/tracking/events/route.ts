import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { ingestTrackingEventsRoute } from "@/lib/routes/tracking";
import { ingestEvents } from "@/lib/tracking/ingest/ingest-visits";

// POST /api/v1/tracking/events: a batch of visits; each validated alone; idempotent per event (free)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: implement(ingestTrackingEventsRoute, async ({ db, auth, body }) =>
    ok(await ingestEvents(db, auth.accountId, body)),
  ),
});
