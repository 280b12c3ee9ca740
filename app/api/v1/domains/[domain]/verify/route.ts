import { verifyDomain } from "@/lib/accounts/domain-verification";
import { ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";

// POST /api/v1/domains/{domain}/verify: check the DNS TXT record or the /.well-known/ file for the token
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: withApiKey<{ domain: string }>(async ({ db, auth, params }) =>
    ok(await verifyDomain(db, auth.accountId, params.domain)),
  ),
});
