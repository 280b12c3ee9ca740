import {
  SEARCH_CONSOLE_DAYS,
  searchConsoleQuery,
  searchConsoleResult,
  trafficQuery,
  trafficResult,
} from "@/lib/connections/api-schemas";
import { ROW_LIMIT } from "@/lib/connections/search-console";
import { defineRoute } from "./contract";
import { EXAMPLE_DOMAIN } from "./examples";

/** GET /search-console/queries?domain=&days=&dimensions=: the domain's Google Search Console figures (free). */
export const getSearchConsoleQueriesRoute = defineRoute({
  method: "get",
  path: "/search-console/queries",
  operationId: "getSearchConsoleQueries",
  tag: "Search and analytics",
  summary: "Google Search Console figures of a registered domain",
  description: `Clicks, impressions, CTR and average position from the account's connected Google Search Console (connect Google on the dashboard's Connections page), by \`dimensions\` (comma-separated: query, page, country, device, date; default query) over the last \`days\` UTC days (default ${SEARCH_CONSOLE_DAYS.default}, max ${SEARCH_CONSOLE_DAYS.max}), at most ${ROW_LIMIT} rows, most clicked first, with the window's totals. The property read is the domain property (\`sc-domain:\`) when the grant reaches it, else the domain's URL-prefix property. Not connected, or a grant Google no longer accepts: 400 \`VALIDATION_ERROR\` with \`details.reason\` \`not_connected\` or \`reconnect_required\` and \`details.connectUrl\` (a revoked grant is not retried until reconnected). A property the grant may not read: 403 \`FORBIDDEN_SCOPE\`. A domain not registered on the account: 403. Free.`,
  query: searchConsoleQuery,
  queryExample: { domain: EXAMPLE_DOMAIN, days: "28", dimensions: "query,device" },
  needsConnection: true,
  success: {
    status: 200,
    description: "Search Console figures.",
    data: { name: "SearchConsoleQueries", schema: searchConsoleResult },
  },
  errors: ["VALIDATION_ERROR"],
});

/** GET /analytics/traffic?domain=&days=&source=: visits, sources, top pages and AI-referred visits (free). */
export const getAnalyticsTrafficRoute = defineRoute({
  method: "get",
  path: "/analytics/traffic",
  operationId: "getAnalyticsTraffic",
  tag: "Search and analytics",
  summary: "Web analytics of a registered domain, AI-referred visits split out",
  description:
    "Visits, visitors and pageviews, the top 25 sources, the top 10 pages and the visits per day over the last `days` UTC days (default 30, max 400), from the account's GA4 property for the domain (a Google connection with the property chosen on the Connections page) or its Plausible site (an API key, for plausible.io or a self-hosted instance); `source` picks one, else GA4 when a property is set. Visits referred by AI engines (ChatGPT, Perplexity, Gemini, Claude, Copilot, …, recognised by the same referrer catalogue as bot tracking) are counted apart in `aiReferred` and `daily[].aiVisits`. Not connected or revoked: 400 `VALIDATION_ERROR` with `details.reason` and `details.connectUrl`. Free.",
  query: trafficQuery,
  queryExample: { domain: EXAMPLE_DOMAIN, days: "30" },
  needsConnection: true,
  success: {
    status: 200,
    description: "Traffic.",
    data: { name: "AnalyticsTraffic", schema: trafficResult },
  },
  errors: ["VALIDATION_ERROR"],
});
