import { ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";
import { parseQuery } from "@/lib/api/parse";
import { searchConsoleQuery } from "@/lib/connections/api-schemas";
import { getSearchConsoleQueries } from "@/lib/connections/search-console";

// GET /api/v1/search-console/queries?domain=&days=&dimensions=: the domain's Google Search Console figures (free)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: withApiKey(async ({ url, db, auth }) =>
    ok(await getSearchConsoleQueries(db, process.env, auth.accountId, parseQuery(url, searchConsoleQuery)), {
      "cache-control": "private, no-store",
    }),
  ),
});
