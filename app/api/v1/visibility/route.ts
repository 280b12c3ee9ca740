import { getVisibility } from "@/lib/ai-visibility/report";
import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { getVisibilityRoute } from "@/lib/routes/visibility";

// GET /api/v1/visibility?domain=&days=: AI-engine citation and mention rates of a registered domain (free)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: implement(getVisibilityRoute, async ({ db, auth, query }) =>
    ok(await getVisibility(db, auth.accountId, query)),
  ),
});
