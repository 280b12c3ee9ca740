import { addDomain, domainView, listDomains } from "@/lib/accounts/domains";
import { ApiResult, ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { listDomainsRoute, registerDomainRoute } from "@/lib/routes/domains";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // GET /api/v1/domains: the account's domains with their verification state and instructions
  GET: implement(listDomainsRoute, async ({ db, auth }) =>
    ok({ domains: (await listDomains(db, auth.accountId)).map(domainView) }),
  ),
  // POST /api/v1/domains: register a domain (201; 200 when it was already registered)
  POST: implement(registerDomainRoute, async ({ db, auth, body }) => {
    const { row, created } = await addDomain(db, auth.accountId, body.domain);
    return new ApiResult(domainView(row), created ? 201 : 200);
  }),
});
