import { ApiResult, ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { DEFAULT_RATE_LIMIT } from "@/lib/api/rate-limit";
import { createNamedKeyPair, keyPairView, listKeyPairs } from "@/lib/keys/keys";
import { createKeyRoute, listKeysRoute } from "@/lib/routes/keys";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // GET /api/v1/keys: the account's key pairs (never their secrets)
  GET: implement(listKeysRoute, async ({ db, auth }) =>
    ok({
      keys: (await listKeyPairs(db, auth.accountId)).map((r) =>
        keyPairView(r.key, DEFAULT_RATE_LIMIT, r.replacedBy),
      ),
    }),
  ),
  // POST /api/v1/keys: a new named pair; 201 with its secret, shown once
  POST: implement(createKeyRoute, async ({ db, auth, body }) => {
    const { row, secret } = await createNamedKeyPair(db, auth.accountId, { name: body.name });
    return new ApiResult({ ...keyPairView(row, DEFAULT_RATE_LIMIT), secret }, 201);
  }),
});
