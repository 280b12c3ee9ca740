import { z } from "zod";
import {
  domainDeleteResult,
  domainInput,
  domainListResult,
  domainResult,
  domainVerifyResult,
} from "@/lib/tracking/api-schemas";
import { defineRoute, type PathParam } from "./contract";
import { EXAMPLE_DOMAIN } from "./examples";

const domainParam = {
  name: "domain",
  description: "A domain registered on the account.",
  schema: z.string().max(253),
  example: EXAMPLE_DOMAIN,
} as const satisfies PathParam<"domain">;

// The Postman collection registers, reads, verifies and removes a fresh domain of its own.
const freshDomain = { domainVariable: "newDomain" };

/** GET /domains: the account's domains with their verification state and instructions. */
export const listDomainsRoute = defineRoute({
  method: "get",
  path: "/domains",
  operationId: "listDomains",
  tag: "Domains",
  summary: "The account's registered domains",
  description: "Every domain registered on the account, with its verification state and instructions.",
  success: {
    status: 200,
    description: "The domains.",
    data: { name: "DomainList", schema: domainListResult },
  },
  errors: [],
});

/** POST /domains: register a domain (201; 200 when it was already registered). */
export const registerDomainRoute = defineRoute({
  method: "post",
  path: "/domains",
  operationId: "registerDomain",
  tag: "Domains",
  summary: "Register a domain",
  description:
    "Registers a domain on the account so that its bot visits can be sent and read. The answer carries the DNS TXT record and the file that verify ownership.",
  body: { name: "DomainInput", schema: domainInput, example: { domain: EXAMPLE_DOMAIN } },
  postman: { ...freshDomain, freshDomain: true },
  success: {
    status: 201,
    description: "The registered domain.",
    data: { name: "Domain", schema: domainResult },
  },
  errors: ["VALIDATION_ERROR"],
});

/** GET /domains/{domain}: one domain (404 when not on the account). */
export const getDomainRoute = defineRoute({
  method: "get",
  path: "/domains/{domain}",
  operationId: "getDomain",
  tag: "Domains",
  summary: "One registered domain",
  description:
    "A domain of the account with its verification state and instructions; 404 when it is not on the account.",
  pathParams: [domainParam],
  postman: freshDomain,
  success: { status: 200, description: "The domain.", data: { name: "Domain", schema: domainResult } },
  errors: ["NOT_FOUND"],
});

/** POST /domains/{domain}/verify: check the DNS TXT record or the /.well-known/ file for the token. */
export const verifyDomainRoute = defineRoute({
  method: "post",
  path: "/domains/{domain}/verify",
  operationId: "verifyDomain",
  tag: "Domains",
  summary: "Check a domain's ownership proof",
  description: "Looks for the DNS TXT record or the verification file and reports each check.",
  pathParams: [domainParam],
  postman: freshDomain,
  success: {
    status: 200,
    description: "The domain with the checks made.",
    data: { name: "DomainVerification", schema: domainVerifyResult },
  },
  errors: ["NOT_FOUND"],
});

/** DELETE /domains/{domain}: remove a domain and all its tracking data. */
export const deleteDomainRoute = defineRoute({
  method: "delete",
  path: "/domains/{domain}",
  operationId: "deleteDomain",
  tag: "Domains",
  summary: "Remove a registered domain",
  description: "Removes the domain from the account, with its recorded visits.",
  pathParams: [domainParam],
  postman: freshDomain,
  success: {
    status: 200,
    description: "The domain was removed.",
    data: { name: "DomainDeleted", schema: domainDeleteResult },
  },
  errors: ["NOT_FOUND"],
});
