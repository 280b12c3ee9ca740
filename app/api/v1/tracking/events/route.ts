import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { ingestTrackingEventsRoute } from "@/lib/routes/tracking";
import { ingestEvents } from "@/lib/tracking/ingest/ingest-visits";

// POST /api/v1/tracking/events: a batch of visits; each validated alone; idempotent per event (free)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: implement(ingestTrackingEventsRoute, ({ db, auth, body }) =>
    // Not awaited here: an async handler would keep its context, and with it the parsed body, alive until the
    // batch is stored (see ingestEvents).
    ingestEvents(db, auth.accountId, body).then((result) => ok(result)),
  ),
});
