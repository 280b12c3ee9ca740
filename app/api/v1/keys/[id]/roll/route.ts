import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { DEFAULT_RATE_LIMIT } from "@/lib/api/rate-limit";
import { keyPairView, rollKeyPair } from "@/lib/keys/keys";
import { rollKeyRoute } from "@/lib/routes/keys";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // POST /api/v1/keys/{id}/roll: a new pair; the old one works on for the chosen window
  POST: implement(rollKeyRoute, async ({ db, auth, params, body }) => {
    const { row, secret, replaced } = await rollKeyPair(db, auth.accountId, params.id, {
      window: body.window,
    });
    return ok({
      key: { ...keyPairView(row, DEFAULT_RATE_LIMIT), secret },
      replaced: keyPairView(replaced, DEFAULT_RATE_LIMIT, row.keyId),
    });
  }),
});
