import { domainView, removeDomain, requireOwnDomain } from "@/lib/accounts/domains";
import { ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";

type Params = { domain: string };

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // GET /api/v1/domains/{domain}: one domain (404 when not on the account)
  GET: withApiKey<Params>(async ({ db, auth, params }) =>
    ok(domainView(await requireOwnDomain(db, auth.accountId, params.domain))),
  ),
  // DELETE /api/v1/domains/{domain}: remove a domain and all its tracking data
  DELETE: withApiKey<Params>(async ({ db, auth, params }) =>
    ok(await removeDomain(db, auth.accountId, params.domain)),
  ),
});
