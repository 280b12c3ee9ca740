import { ok } from "@/lib/api/envelope";
import { implement } from "@/lib/api/implement";
import { legacyMethods } from "@/lib/api/legacy";
import { legacyGetCitationsRoute } from "@/lib/routes/legacy";
import { getCitations } from "@/lib/tracking/reports/citations-query";
import { READ_CACHE_HEADERS } from "@/lib/tracking/reports/read-cache";

// GET /api/tracking/citations?domain=&days=&limit= (older interface): as GET /api/v1/citations
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = legacyMethods({
  GET: implement(legacyGetCitationsRoute, async ({ db, auth, query }) =>
    ok(await getCitations(db, auth.accountId, query), READ_CACHE_HEADERS),
  ),
});
