import { ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";
import { parseQuery } from "@/lib/api/parse";
import { deliveriesQuery, listDeliveries } from "@/lib/webhooks";

// GET /api/v1/webhooks/{id}/deliveries?limit=: the endpoint's delivery log, newest first
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: withApiKey<{ id: string }>(async ({ url, db, auth, params }) => {
    const { limit } = parseQuery(url, deliveriesQuery);
    return ok({ deliveries: await listDeliveries(db, auth.accountId, params.id, limit) });
  }),
});
