import { ok } from "@/lib/api/envelope";
import { implement } from "@/lib/api/implement";
import { legacyMethods } from "@/lib/api/legacy";
import { legacyIngestVisitsRoute, legacyListVisitsRoute } from "@/lib/routes/legacy";
import { ingestEvents } from "@/lib/tracking/ingest/ingest-visits";
import { listBotVisits } from "@/lib/tracking/reports/visits-list";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = legacyMethods({
  // GET /api/tracking/visits?domain=&from=&to=&bot=&aiOnly=&cursor=&limit= (older interface): bot visits, newest first
  GET: implement(legacyListVisitsRoute, async ({ db, auth, query }) =>
    ok(await listBotVisits(db, auth.accountId, query)),
  ),
  // POST /api/tracking/visits (older interface): the same events as POST /api/v1/tracking/events
  POST: implement(legacyIngestVisitsRoute, ({ db, auth, body }) =>
    // Not awaited here: an async handler would keep its context, and with it the parsed body, alive until the
    // batch is stored (see ingestEvents).
    ingestEvents(db, auth.accountId, body).then((result) => ok(result)),
  ),
});
