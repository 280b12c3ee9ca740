import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { enableWebhookRoute } from "@/lib/routes/webhooks";
import { enableEndpoint } from "@/lib/webhooks";

// POST /api/v1/webhooks/{id}/enable: turn a disabled endpoint back on
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: implement(enableWebhookRoute, async ({ db, auth, params }) =>
    ok(await enableEndpoint(db, auth.accountId, params.id)),
  ),
});
