import { ApiResult, ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";
import { parseJson } from "@/lib/api/parse";
import { createEndpoint, endpointView, listEndpoints, webhookCreateInput } from "@/lib/webhooks";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // GET /api/v1/webhooks: the account's webhook endpoints (never their secrets)
  GET: withApiKey(async ({ db, auth }) =>
    ok({ webhooks: (await listEndpoints(db, auth.accountId)).map((row) => endpointView(row)) }),
  ),
  // POST /api/v1/webhooks: add an endpoint; 201 with its signing secret, shown once
  POST: withApiKey(async ({ req, db, auth }) => {
    const { view, secret } = await createEndpoint(
      db,
      auth.accountId,
      await parseJson(req, webhookCreateInput),
    );
    return new ApiResult({ ...view, secret }, 201);
  }),
});
