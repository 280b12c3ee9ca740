import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { getPageFunnel } from "@/lib/funnel/page-funnel";
import { getTrackingPagesRoute } from "@/lib/routes/pages";
import { READ_CACHE_HEADERS } from "@/lib/tracking/reports/read-cache";

// GET /api/v1/tracking/pages?domain=&days=&sort=&order=&limit=&cursor=: the page funnel of a registered domain (free)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: implement(getTrackingPagesRoute, async ({ db, auth, query }) =>
    ok(await getPageFunnel(db, process.env, auth.accountId, query), READ_CACHE_HEADERS),
  ),
});
