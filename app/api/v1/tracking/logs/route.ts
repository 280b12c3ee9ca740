import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { ingestTrackingLogsRoute } from "@/lib/routes/tracking";
import { ingestLog } from "@/lib/tracking/ingest/ingest-visits";
import { readLogUpload } from "@/lib/tracking/ingest/log-upload";

// POST /api/v1/tracking/logs?domain=: an access log (combined/common format, text or gzip) of one domain
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: implement(ingestTrackingLogsRoute, async ({ req, db, auth, query }) =>
    ok(await ingestLog(db, auth.accountId, query.domain, () => readLogUpload(req))),
  ),
});
