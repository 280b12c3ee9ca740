import { ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";
import { parseQuery } from "@/lib/api/parse";
import { trafficQuery } from "@/lib/connections/api-schemas";
import { getTraffic } from "@/lib/connections/traffic";

// GET /api/v1/analytics/traffic?domain=&days=&source=: visits, sources, top pages and AI-referred visits (free)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: withApiKey(async ({ url, db, auth }) =>
    ok(await getTraffic(db, process.env, auth.accountId, parseQuery(url, trafficQuery)), {
      "cache-control": "private, no-store",
    }),
  ),
});
