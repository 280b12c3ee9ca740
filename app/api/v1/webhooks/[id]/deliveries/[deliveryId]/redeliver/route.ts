import { ApiResult } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { redeliverWebhookRoute } from "@/lib/routes/webhooks";
import { redeliver } from "@/lib/webhooks";

// POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver: send that message again (202, a new delivery)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: implement(
    redeliverWebhookRoute,
    async ({ db, auth, params }) =>
      new ApiResult(await redeliver(db, auth.accountId, params.id, params.deliveryId), 202),
  ),
});
