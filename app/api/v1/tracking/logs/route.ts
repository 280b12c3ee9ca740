import { ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";
import { parseQuery } from "@/lib/api/parse";
import { logsIngestQuery } from "@/lib/tracking/api-schemas";
import { ingestLog } from "@/lib/tracking/ingest/ingest-visits";
import { readLogUpload } from "@/lib/tracking/ingest/log-upload";

// POST /api/v1/tracking/logs?domain=&format=: an access log (combined, vhost-combined, JSON lines, ALB or
// CloudFront; text or gzip, ≤ 10 MB) of one domain
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: withApiKey(async ({ req, url, db, auth }) => {
    const { domain, format } = parseQuery(url, logsIngestQuery);
    return ok(await ingestLog(db, auth.accountId, domain, () => readLogUpload(req), { format }));
  }),
});
