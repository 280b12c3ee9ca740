import { ok } from "@/lib/api/envelope";
import { legacyMethods, withLegacyToken } from "@/lib/api/legacy";
import { parseQuery } from "@/lib/api/parse";
import { legacyVisibilityQuery } from "@/lib/reports/api-schemas";
import { getScoredVisibility } from "@/lib/reports/visibility";

// GET /api/analytics/visibility?domain=&days= (older interface): the AI visibility series with scores
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = legacyMethods({
  GET: withLegacyToken(async ({ url, db, auth }) =>
    ok(await getScoredVisibility(db, auth.accountId, parseQuery(url, legacyVisibilityQuery))),
  ),
});
