import { ok } from "@/lib/api/envelope";
import { legacyMethods, withLegacyToken } from "@/lib/api/legacy";
import { parseQuery, readJson } from "@/lib/api/parse";
import { visitsQuery } from "@/lib/reports/api-schemas";
import { ingestEvents } from "@/lib/tracking/ingest/ingest-visits";
import { listBotVisits } from "@/lib/tracking/reports/visits-list";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = legacyMethods({
  // GET /api/tracking/visits?domain=&from=&to=&bot=&aiOnly=&cursor=&limit= (older interface): bot visits, newest first
  GET: withLegacyToken(async ({ url, db, auth }) =>
    ok(await listBotVisits(db, auth.accountId, parseQuery(url, visitsQuery))),
  ),
  // POST /api/tracking/visits (older interface): the same events as POST /api/v1/tracking/events
  POST: withLegacyToken(async ({ req, db, auth }) =>
    ok(await ingestEvents(db, auth.accountId, await readJson(req))),
  ),
});
