import { ApiResult } from "@/lib/api/envelope";
import { implement } from "@/lib/api/implement";
import { legacyMethods } from "@/lib/api/legacy";
import { parseValue, readJson } from "@/lib/api/parse";
import { legacySendWebhookTestRoute, legacyWebhookIdBody } from "@/lib/routes/legacy";
import { sendTestEvent } from "@/lib/webhooks";

// POST /api/tracking/webhook/test [{id}] (older interface): a webhook.test event to one endpoint, or to all
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = legacyMethods({
  POST: implement(legacySendWebhookTestRoute, async ({ req, db, auth }) => {
    // The body is optional: without one (no Content-Type), every enabled endpoint gets the event.
    const hasBody = req.headers.get("content-type") !== null;
    const { id } = hasBody ? parseValue(legacyWebhookIdBody, await readJson(req)) : { id: undefined };
    return new ApiResult(await sendTestEvent(db, auth.accountId, id), 202);
  }),
});
