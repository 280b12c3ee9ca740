import { ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";
import { parseQuery } from "@/lib/api/parse";
import { citationsQuery } from "@/lib/tracking/api-schemas";
import { getCitations } from "@/lib/tracking/reports/citations-query";
import { READ_CACHE_HEADERS } from "@/lib/tracking/reports/read-cache";

// GET /api/v1/citations?domain=&days=&limit=: AI-engine citations of a registered domain (free, cached ~2 min)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: withApiKey(async ({ url, db, auth }) =>
    ok(await getCitations(db, auth.accountId, parseQuery(url, citationsQuery)), READ_CACHE_HEADERS),
  ),
});
