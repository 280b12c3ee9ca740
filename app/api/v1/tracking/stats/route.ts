import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { getTrackingStatsRoute } from "@/lib/routes/tracking";
import { READ_CACHE_HEADERS } from "@/lib/tracking/reports/read-cache";
import { getBotStats } from "@/lib/tracking/reports/stats";

// GET /api/v1/tracking/stats?domain=: bot visit statistics of a registered domain (free, cached ~2 min)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: implement(getTrackingStatsRoute, async ({ db, auth, query }) =>
    ok(await getBotStats(db, auth.accountId, query.domain), READ_CACHE_HEADERS),
  ),
});
