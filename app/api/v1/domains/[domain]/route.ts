import { domainView, removeDomain, requireOwnDomain } from "@/lib/accounts/domains";
import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { deleteDomainRoute, getDomainRoute } from "@/lib/routes/domains";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // GET /api/v1/domains/{domain}: one domain (404 when not on the account)
  GET: implement(getDomainRoute, async ({ db, auth, params }) =>
    ok(domainView(await requireOwnDomain(db, auth.accountId, params.domain))),
  ),
  // DELETE /api/v1/domains/{domain}: remove a domain and all its tracking data
  DELETE: implement(deleteDomainRoute, async ({ db, auth, params }) =>
    ok(await removeDomain(db, auth.accountId, params.domain)),
  ),
});
