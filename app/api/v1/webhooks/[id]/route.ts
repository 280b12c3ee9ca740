import { ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";
import { deleteEndpoint, endpointView, requireEndpoint } from "@/lib/webhooks";

type P = { id: string };

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // GET /api/v1/webhooks/{id}: one endpoint
  GET: withApiKey<P>(async ({ db, auth, params }) =>
    ok(endpointView(await requireEndpoint(db, auth.accountId, params.id))),
  ),
  // DELETE /api/v1/webhooks/{id}: remove the endpoint and its delivery log
  DELETE: withApiKey<P>(async ({ db, auth, params }) =>
    ok(await deleteEndpoint(db, auth.accountId, params.id)),
  ),
});
