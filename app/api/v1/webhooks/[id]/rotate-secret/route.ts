import { ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";
import { rotateEndpointSecret } from "@/lib/webhooks";

// POST /api/v1/webhooks/{id}/rotate-secret: a new signing secret (shown once); the old one signs too for 24 h
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: withApiKey<{ id: string }>(async ({ db, auth, params }) => {
    const { view, secret } = await rotateEndpointSecret(db, auth.accountId, params.id);
    return ok({ ...view, secret });
  }),
});
