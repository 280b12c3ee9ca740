import { ApiResult } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";
import { redeliver } from "@/lib/webhooks";

// POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver: send that message again (202, a new delivery)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: withApiKey<{ id: string; deliveryId: string }>(
    async ({ db, auth, params }) =>
      new ApiResult(await redeliver(db, auth.accountId, params.id, params.deliveryId), 202),
  ),
});
