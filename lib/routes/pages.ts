import { PAGES_DAYS, PAGES_LIMIT, pagesQuery, pagesResult } from "@/lib/funnel/api-schemas";
import { defineRoute } from "./contract";
import { EXAMPLE_DOMAIN } from "./examples";

/** GET /tracking/pages?domain=&days=&sort=&order=&limit=&cursor=: the page funnel of a registered domain (free). */
export const getTrackingPagesRoute = defineRoute({
  method: "get",
  path: "/tracking/pages",
  operationId: "getTrackingPages",
  tag: "Tracking",
  summary: "The page funnel: AI crawls, citations and AI-referred visits per page",
  description: `For each page of a domain registered on the account over the last \`days\` UTC days: AI crawls (and how many verified), the first crawl, citations by engine and by assistant, the first citation and the hours from first crawl to first citation, AI-referred visits, and, when the account has connected them, Google Search Console impressions and clicks and analytics sessions (\`searchConsole\` and \`analytics\` say when they are not, and those figures are then null). Per operator: AI crawls per AI-referred visit. Sorted by \`sort\` and \`order\`, paged by \`cursor\`. Cached about 2 minutes. \`days\` above ${PAGES_DAYS.max} or \`limit\` above ${PAGES_LIMIT.max} are 400, never clamped; a domain not registered on the account is 403 \`FORBIDDEN_SCOPE\`.`,
  query: pagesQuery,
  queryExample: {
    domain: EXAMPLE_DOMAIN,
    days: String(PAGES_DAYS.default),
    sort: "crawls",
    limit: String(PAGES_LIMIT.default),
  },
  success: {
    status: 200,
    description: "The page funnel.",
    data: { name: "PageFunnel", schema: pagesResult },
  },
  errors: ["VALIDATION_ERROR"],
});
