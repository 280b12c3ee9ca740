import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { deleteWebhookRoute, getWebhookRoute } from "@/lib/routes/webhooks";
import { deleteEndpoint, endpointView, requireEndpoint } from "@/lib/webhooks";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // GET /api/v1/webhooks/{id}: one endpoint
  GET: implement(getWebhookRoute, async ({ db, auth, params }) =>
    ok(endpointView(await requireEndpoint(db, auth.accountId, params.id))),
  ),
  // DELETE /api/v1/webhooks/{id}: remove the endpoint and its delivery log
  DELETE: implement(deleteWebhookRoute, async ({ db, auth, params }) =>
    ok(await deleteEndpoint(db, auth.accountId, params.id)),
  ),
});
