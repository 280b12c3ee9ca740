import { describeCaller } from "@/lib/accounts/whoami";
import { ok } from "@/lib/api/envelope";
import { implement } from "@/lib/api/implement";
import { legacyMethods } from "@/lib/api/legacy";
import { legacyGetMeRoute } from "@/lib/routes/legacy";

// GET /api/auth/me (older interface, Bearer token): the token's account, its owner and the token's scope
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = legacyMethods({
  GET: implement(legacyGetMeRoute, async ({ db, auth }) =>
    ok(
      await describeCaller(
        db,
        auth.accountId,
        auth.legacyTokenId
          ? { kind: "legacy_token", id: auth.legacyTokenId, name: auth.legacyTokenName ?? null }
          : { kind: "key_pair", id: auth.keyId, name: null },
      ),
    ),
  ),
});
