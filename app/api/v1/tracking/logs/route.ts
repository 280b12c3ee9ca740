import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { ingestTrackingLogsRoute } from "@/lib/routes/tracking";
import { ingestLog } from "@/lib/tracking/ingest/ingest-visits";
import { readLogUpload } from "@/lib/tracking/ingest/log-upload";

// POST /api/v1/tracking/logs?domain=&format=: an access log (server and CDN formats, JSON lines, a log drain's JSON
// array; text or gzip, ≤ 10 MB) of one domain
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: implement(ingestTrackingLogsRoute, async ({ req, db, auth, query }) =>
    ok(await ingestLog(db, auth.accountId, query.domain, () => readLogUpload(req), { format: query.format })),
  ),
});
