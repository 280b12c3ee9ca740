import { addDomain, domainView, listDomains } from "@/lib/accounts/domains";
import { ApiResult, ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";
import { parseJson } from "@/lib/api/parse";
import { domainInput } from "@/lib/tracking/api-schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  // GET /api/v1/domains: the account's domains with their verification state and instructions
  GET: withApiKey(async ({ db, auth }) =>
    ok({ domains: (await listDomains(db, auth.accountId)).map(domainView) }),
  ),
  // POST /api/v1/domains: register a domain (201; 200 when it was already registered)
  POST: withApiKey(async ({ req, db, auth }) => {
    const { domain } = await parseJson(req, domainInput);
    const { row, created } = await addDomain(db, auth.accountId, domain);
    return new ApiResult(domainView(row), created ? 201 : 200);
  }),
});
