import { ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";
import { readJson } from "@/lib/api/parse";
import { ingestEvents } from "@/lib/tracking/ingest/ingest-visits";

// POST /api/v1/tracking/events: up to 1000 visits; each validated alone; idempotent per event (free)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: withApiKey(async ({ req, db, auth }) =>
    ok(await ingestEvents(db, auth.accountId, await readJson(req))),
  ),
});
