import { ok } from "@/lib/api/envelope";
import { legacyMethods, withLegacyToken } from "@/lib/api/legacy";
import { parseQuery } from "@/lib/api/parse";
import { citationsQuery } from "@/lib/tracking/api-schemas";
import { getCitations } from "@/lib/tracking/reports/citations-query";
import { READ_CACHE_HEADERS } from "@/lib/tracking/reports/read-cache";

// GET /api/tracking/citations?domain=&days=&limit= (older interface): as GET /api/v1/citations
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = legacyMethods({
  GET: withLegacyToken(async ({ url, db, auth }) =>
    ok(await getCitations(db, auth.accountId, parseQuery(url, citationsQuery)), READ_CACHE_HEADERS),
  ),
});
