import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { getTraffic } from "@/lib/connections/traffic";
import { getAnalyticsTrafficRoute } from "@/lib/routes/connections";

// GET /api/v1/analytics/traffic?domain=&days=&source=: visits, sources, top pages and AI-referred visits (free)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: implement(getAnalyticsTrafficRoute, async ({ db, auth, query }) =>
    ok(await getTraffic(db, process.env, auth.accountId, query), { "cache-control": "private, no-store" }),
  ),
});
