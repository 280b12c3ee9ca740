import { ApiResult, ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { createWebhookRoute, listWebhooksRoute } from "@/lib/routes/webhooks";
import { createEndpoint, endpointView, listEndpoints } from "@/lib/webhooks";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // GET /api/v1/webhooks: the account's webhook endpoints (never their secrets)
  GET: implement(listWebhooksRoute, async ({ db, auth }) =>
    ok({ webhooks: (await listEndpoints(db, auth.accountId)).map((row) => endpointView(row)) }),
  ),
  // POST /api/v1/webhooks: add an endpoint; 201 with its signing secret, shown once
  POST: implement(createWebhookRoute, async ({ db, auth, body }) => {
    const { view, secret } = await createEndpoint(db, auth.accountId, body);
    return new ApiResult({ ...view, secret }, 201);
  }),
});
