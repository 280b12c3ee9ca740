import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { getSearchConsoleQueries } from "@/lib/connections/search-console";
import { getSearchConsoleQueriesRoute } from "@/lib/routes/connections";

// GET /api/v1/search-console/queries?domain=&days=&dimensions=: the domain's Google Search Console figures (free)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: implement(getSearchConsoleQueriesRoute, async ({ db, auth, query }) =>
    ok(await getSearchConsoleQueries(db, process.env, auth.accountId, query), {
      "cache-control": "private, no-store",
    }),
  ),
});
