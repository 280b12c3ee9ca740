import { ok } from "@/lib/api/envelope";
import { implement } from "@/lib/api/implement";
import { legacyMethods } from "@/lib/api/legacy";
import { getScoredVisibility } from "@/lib/reports/visibility";
import { legacyGetVisibilityRoute } from "@/lib/routes/legacy";

// GET /api/analytics/visibility?domain=&days= (older interface): the AI visibility series with scores
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = legacyMethods({
  GET: implement(legacyGetVisibilityRoute, async ({ db, auth, query }) =>
    ok(await getScoredVisibility(db, auth.accountId, query)),
  ),
});
