import { visibilityQuery } from "@/lib/ai-visibility/api-schemas";
import { getVisibility } from "@/lib/ai-visibility/report";
import { ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";
import { parseQuery } from "@/lib/api/parse";

// GET /api/v1/visibility?domain=&days=: AI-engine citation and mention rates of a registered domain (free)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: withApiKey(async ({ url, db, auth }) =>
    ok(await getVisibility(db, auth.accountId, parseQuery(url, visibilityQuery))),
  ),
});
