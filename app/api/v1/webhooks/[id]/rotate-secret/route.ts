import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { rotateWebhookSecretRoute } from "@/lib/routes/webhooks";
import { rotateEndpointSecret } from "@/lib/webhooks";

// POST /api/v1/webhooks/{id}/rotate-secret: a new signing secret (shown once); the old one signs too for 24 h
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: implement(rotateWebhookSecretRoute, async ({ db, auth, params }) => {
    const { view, secret } = await rotateEndpointSecret(db, auth.accountId, params.id);
    return ok({ ...view, secret });
  }),
});
