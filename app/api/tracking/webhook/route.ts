import { ApiResult, ok } from "@/lib/api/envelope";
import { implement } from "@/lib/api/implement";
import { legacyMethods } from "@/lib/api/legacy";
import { parseValue, readJson } from "@/lib/api/parse";
import {
  legacyCreateWebhookRoute,
  legacyDeleteWebhookRoute,
  legacyListWebhooksRoute,
  legacyWebhookIdBody,
} from "@/lib/routes/legacy";
import { createEndpoint, deleteEndpoint, endpointView, listEndpoints } from "@/lib/webhooks";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = legacyMethods({
  // GET /api/tracking/webhook (older interface): the account's webhook endpoints
  GET: implement(legacyListWebhooksRoute, async ({ db, auth }) =>
    ok({ webhooks: (await listEndpoints(db, auth.accountId)).map((row) => endpointView(row)) }),
  ),
  // POST /api/tracking/webhook {url, events[]} (older interface): 201 with the signing secret, shown once
  POST: implement(legacyCreateWebhookRoute, async ({ db, auth, body }) => {
    const { view, secret } = await createEndpoint(db, auth.accountId, body);
    return new ApiResult({ ...view, secret }, 201);
  }),
  // DELETE /api/tracking/webhook?id= (or a body {id}) (older interface): remove an endpoint
  DELETE: implement(legacyDeleteWebhookRoute, async ({ req, db, auth, query }) => {
    // Without the query parameter, the id comes in a JSON body (the contract documents the query).
    const id = query.id ?? parseValue(legacyWebhookIdBody.required(), await readJson(req)).id;
    return ok(await deleteEndpoint(db, auth.accountId, id));
  }),
});
