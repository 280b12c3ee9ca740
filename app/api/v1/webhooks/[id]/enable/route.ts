import { ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";
import { enableEndpoint } from "@/lib/webhooks";

// POST /api/v1/webhooks/{id}/enable: turn a disabled endpoint back on
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: withApiKey<{ id: string }>(async ({ db, auth, params }) =>
    ok(await enableEndpoint(db, auth.accountId, params.id)),
  ),
});
