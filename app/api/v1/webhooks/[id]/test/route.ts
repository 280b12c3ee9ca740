import { ApiResult } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { sendWebhookTestRoute } from "@/lib/routes/webhooks";
import { sendTestEvent } from "@/lib/webhooks";

// POST /api/v1/webhooks/{id}/test: queue a webhook.test event for this endpoint (202; see its deliveries)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: implement(
    sendWebhookTestRoute,
    async ({ db, auth, params }) => new ApiResult(await sendTestEvent(db, auth.accountId, params.id), 202),
  ),
});
