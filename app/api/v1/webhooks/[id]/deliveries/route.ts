import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { listWebhookDeliveriesRoute } from "@/lib/routes/webhooks";
import { listDeliveries } from "@/lib/webhooks";

// GET /api/v1/webhooks/{id}/deliveries?limit=: the endpoint's delivery log, newest first
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: implement(listWebhookDeliveriesRoute, async ({ db, auth, params, query }) =>
    ok({ deliveries: await listDeliveries(db, auth.accountId, params.id, query.limit) }),
  ),
});
