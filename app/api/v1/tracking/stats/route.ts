import { ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";
import { parseQuery } from "@/lib/api/parse";
import { trackingStatsQuery } from "@/lib/tracking/api-schemas";
import { READ_CACHE_HEADERS } from "@/lib/tracking/reports/read-cache";
import { getBotStats } from "@/lib/tracking/reports/stats";

// GET /api/v1/tracking/stats?domain=: bot visit statistics of a registered domain (free, cached ~2 min)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: withApiKey(async ({ url, db, auth }) => {
    const { domain } = parseQuery(url, trackingStatsQuery);
    return ok(await getBotStats(db, auth.accountId, domain), READ_CACHE_HEADERS);
  }),
});
