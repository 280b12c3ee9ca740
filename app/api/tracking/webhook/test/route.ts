import { z } from "zod";
import { ApiResult } from "@/lib/api/envelope";
import { legacyMethods, withLegacyToken } from "@/lib/api/legacy";
import { parseValue, readJson } from "@/lib/api/parse";
import { sendTestEvent } from "@/lib/webhooks";

const testBody = z.strictObject({ id: z.string().max(100).optional() });

// POST /api/tracking/webhook/test [{id}] (older interface): a webhook.test event to one endpoint, or to all
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = legacyMethods({
  POST: withLegacyToken(async ({ req, db, auth }) => {
    // The body is optional: without one (no Content-Type), every enabled endpoint gets the event.
    const hasBody = req.headers.get("content-type") !== null;
    const { id } = hasBody ? parseValue(testBody, await readJson(req)) : { id: undefined };
    return new ApiResult(await sendTestEvent(db, auth.accountId, id), 202);
  }),
});
