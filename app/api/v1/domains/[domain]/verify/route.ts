import { verifyDomain } from "@/lib/accounts/domain-verification";
import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { verifyDomainRoute } from "@/lib/routes/domains";

// POST /api/v1/domains/{domain}/verify: check the DNS TXT record or the /.well-known/ file for the token
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: implement(verifyDomainRoute, async ({ db, auth, params }) =>
    ok(await verifyDomain(db, auth.accountId, params.domain)),
  ),
});
