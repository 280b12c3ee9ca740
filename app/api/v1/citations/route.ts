import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { getCitationsRoute } from "@/lib/routes/tracking";
import { getCitations } from "@/lib/tracking/reports/citations-query";
import { READ_CACHE_HEADERS } from "@/lib/tracking/reports/read-cache";

// GET /api/v1/citations?domain=&days=&limit=: AI-engine citations of a registered domain (free, cached ~2 min)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: implement(getCitationsRoute, async ({ db, auth, query }) =>
    ok(await getCitations(db, auth.accountId, query), READ_CACHE_HEADERS),
  ),
});
