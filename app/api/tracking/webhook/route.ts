import { z } from "zod";
import { ApiResult, ok } from "@/lib/api/envelope";
import { legacyMethods, withLegacyToken } from "@/lib/api/legacy";
import { parseJson, parseQuery, parseValue, readJson } from "@/lib/api/parse";
import {
  createEndpoint,
  deleteEndpoint,
  endpointView,
  listEndpoints,
  webhookCreateInput,
} from "@/lib/webhooks";

const idQuery = z.object({ id: z.string().max(100).optional() });
const idBody = z.object({ id: z.string().max(100) });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = legacyMethods({
  // GET /api/tracking/webhook (older interface): the account's webhook endpoints
  GET: withLegacyToken(async ({ db, auth }) =>
    ok({ webhooks: (await listEndpoints(db, auth.accountId)).map((row) => endpointView(row)) }),
  ),
  // POST /api/tracking/webhook {url, events[]} (older interface): 201 with the signing secret, shown once
  POST: withLegacyToken(async ({ req, db, auth }) => {
    const { view, secret } = await createEndpoint(
      db,
      auth.accountId,
      await parseJson(req, webhookCreateInput),
    );
    return new ApiResult({ ...view, secret }, 201);
  }),
  // DELETE /api/tracking/webhook?id= (or a body {id}) (older interface): remove an endpoint
  DELETE: withLegacyToken(async ({ req, url, db, auth }) => {
    const fromQuery = parseQuery(url, idQuery).id;
    const id = fromQuery ?? parseValue(idBody, await readJson(req)).id;
    return ok(await deleteEndpoint(db, auth.accountId, id));
  }),
});
