import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { DEFAULT_RATE_LIMIT } from "@/lib/api/rate-limit";
import { keyPairView, revokeKeyPair } from "@/lib/keys/keys";
import { revokeKeyRoute } from "@/lib/routes/keys";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // DELETE /api/v1/keys/{id}: revoke a pair at once
  DELETE: implement(revokeKeyRoute, async ({ db, auth, params }) =>
    ok(keyPairView(await revokeKeyPair(db, auth.accountId, params.id), DEFAULT_RATE_LIMIT)),
  ),
});
