import { z } from "zod";
import {
  legacyVisibilityQuery,
  legacyVisibilityResult,
  performanceReport,
  reportQuery,
  visitsQuery,
  visitsResult,
} from "@/lib/reports/api-schemas";
import { citationsQuery, citationsResult, eventsIngestResult } from "@/lib/tracking/api-schemas";
import { trackingEventBatch } from "@/lib/tracking/ingest/event-schema";
import { webhookDeleted, webhookList, webhookTestResult, webhookWithSecret } from "@/lib/webhooks/schemas";
import { defineRoute } from "./contract";
import { EXAMPLE_DOMAIN, exampleTrackingEvents } from "./examples";
import { SIGNING, webhookCreateBody, webhookIdParam } from "./webhooks";

/**
 * The older, unversioned interface (paths under /api, not /api/v1; `legacy: true`): a bearer token
 * (`implement` authenticates it with lib/api/legacy.ts), the same envelope, rate limit and error codes as v1.
 * Operations with a v1 equivalent are `deprecated` and name it.
 */

/** An endpoint's id, in the query (or, for DELETE, a JSON body `{id}`). */
export const legacyWebhookIdQuery = z.object({
  id: webhookIdParam.schema.optional().describe("The endpoint (or send a JSON body `{id}`)."),
});
/** The JSON body naming an endpoint (DELETE without the query parameter; the optional body of the test). */
export const legacyWebhookIdBody = z.strictObject({ id: webhookIdParam.schema.optional() });

/** GET /auth/me: the token's account, its owner and the token's scope. */
export const legacyGetMeRoute = defineRoute({
  method: "get",
  path: "/auth/me",
  operationId: "legacyGetMe",
  tag: "Legacy interface",
  legacy: true,
  summary: "The token's account, owner and scope",
  description:
    "The account behind the bearer token (id, name, credit balance), its owner, the token (a legacy token or the key pair) and its scope: the whole account, with its registered domains.",
  success: {
    status: 200,
    description: "Who the token is.",
    data: {
      name: "LegacyMe",
      schema: z.object({
        account: z.object({ id: z.uuid(), name: z.string(), creditBalance: z.number().int() }),
        owner: z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }).nullable(),
        token: z.object({
          kind: z.enum(["legacy_token", "key_pair"]),
          id: z.string(),
          name: z.string().nullable(),
        }),
        scope: z.object({
          type: z.literal("account"),
          accountId: z.uuid(),
          domains: z.array(z.string()),
          permissions: z.array(z.string()),
        }),
      }),
    },
  },
  errors: [],
});

/** GET /tracking/visits?domain=&from=&to=&bot=&aiOnly=&cursor=&limit=: bot visits, newest first. */
export const legacyListVisitsRoute = defineRoute({
  method: "get",
  path: "/tracking/visits",
  operationId: "legacyListVisits",
  tag: "Legacy interface",
  legacy: true,
  summary: "AI and search bot visits, newest first",
  description:
    "Bot visits of a registered domain, newest first, filtered by time (`from` inclusive, `to` exclusive), bot name and `aiOnly`, paginated with `cursor` (the previous page's `nextCursor`). A domain not on the account is 403.",
  query: visitsQuery,
  queryExample: { domain: EXAMPLE_DOMAIN, limit: "50" },
  success: {
    status: 200,
    description: "A page of visits.",
    data: { name: "LegacyVisits", schema: visitsResult },
  },
  errors: ["VALIDATION_ERROR"],
});

/** POST /tracking/visits: the same events as POST /api/v1/tracking/events. */
export const legacyIngestVisitsRoute = defineRoute({
  method: "post",
  path: "/tracking/visits",
  operationId: "legacyIngestVisits",
  tag: "Legacy interface",
  legacy: true,
  deprecated: true,
  summary: "Send bot visits (use POST /api/v1/tracking/events)",
  description: "The same batch and answer as POST /api/v1/tracking/events.",
  body: {
    name: "TrackingEventBatch",
    schema: trackingEventBatch,
    example: exampleTrackingEvents(),
    // ingestEvents applies the batch bounds, then each event's schema alone (a bad event is only rejected).
    validation: "service",
  },
  success: {
    status: 200,
    description: "What was recorded.",
    data: { name: "EventsIngestResult", schema: eventsIngestResult },
  },
  errors: ["VALIDATION_ERROR"],
});

/** GET /tracking/citations?domain=&days=&limit=: as GET /api/v1/citations. */
export const legacyGetCitationsRoute = defineRoute({
  method: "get",
  path: "/tracking/citations",
  operationId: "legacyGetCitations",
  tag: "Legacy interface",
  legacy: true,
  deprecated: true,
  summary: "AI-engine citations (use GET /api/v1/citations)",
  description: "The same parameters and answer as GET /api/v1/citations.",
  query: citationsQuery,
  queryExample: { domain: EXAMPLE_DOMAIN, days: "30", limit: "50" },
  success: { status: 200, description: "Citations.", data: { name: "Citations", schema: citationsResult } },
  errors: ["VALIDATION_ERROR"],
});

/** GET /tracking/webhook: the account's webhook endpoints. */
export const legacyListWebhooksRoute = defineRoute({
  method: "get",
  path: "/tracking/webhook",
  operationId: "legacyListWebhooks",
  tag: "Legacy interface",
  legacy: true,
  deprecated: true,
  summary: "Webhook endpoints (use GET /api/v1/webhooks)",
  description: "The same answer as GET /api/v1/webhooks.",
  success: {
    status: 200,
    description: "The endpoints.",
    data: { name: "WebhookList", schema: webhookList },
  },
  errors: [],
});

/** POST /tracking/webhook {url, events[]}: 201 with the signing secret, shown once. */
export const legacyCreateWebhookRoute = defineRoute({
  method: "post",
  path: "/tracking/webhook",
  operationId: "legacyCreateWebhook",
  tag: "Legacy interface",
  legacy: true,
  deprecated: true,
  summary: "Add a webhook endpoint (use POST /api/v1/webhooks)",
  description: `\`{url, events[]}\` → the endpoint with its signing secret, shown once; as POST /api/v1/webhooks.\n\n${SIGNING}`,
  body: webhookCreateBody,
  success: {
    status: 201,
    description: "The endpoint, with its secret (shown once).",
    data: { name: "WebhookWithSecret", schema: webhookWithSecret },
  },
  errors: ["VALIDATION_ERROR"],
});

/** POST /tracking/webhook/test [{id}]: a webhook.test event to one endpoint, or to all. */
export const legacySendWebhookTestRoute = defineRoute({
  method: "post",
  path: "/tracking/webhook/test",
  operationId: "legacySendWebhookTest",
  tag: "Legacy interface",
  legacy: true,
  deprecated: true,
  summary: "Send a test event (use POST /api/v1/webhooks/{id}/test)",
  description:
    "Queues a `webhook.test` event for the endpoint `id` of an optional JSON body `{id}`, or, without a body, for every enabled endpoint of the account.",
  success: {
    status: 202,
    description: "The event was queued.",
    data: { name: "WebhookTestResult", schema: webhookTestResult },
  },
  errors: ["VALIDATION_ERROR", "NOT_FOUND", "RATE_LIMITED"],
});

/** DELETE /tracking/webhook?id= (or a body {id}): remove an endpoint. */
export const legacyDeleteWebhookRoute = defineRoute({
  method: "delete",
  path: "/tracking/webhook",
  operationId: "legacyDeleteWebhook",
  tag: "Legacy interface",
  legacy: true,
  deprecated: true,
  summary: "Remove a webhook endpoint (use DELETE /api/v1/webhooks/{id})",
  description: "Removes the endpoint named by the `id` query parameter (or a JSON body `{id}`).",
  query: legacyWebhookIdQuery,
  queryExample: { id: webhookIdParam.example },
  success: {
    status: 200,
    description: "The endpoint was removed.",
    data: { name: "WebhookDeleted", schema: webhookDeleted },
  },
  errors: ["NOT_FOUND", "VALIDATION_ERROR"],
});

/** GET /analytics/visibility?domain=&days=: the AI visibility series with scores. */
export const legacyGetVisibilityRoute = defineRoute({
  method: "get",
  path: "/analytics/visibility",
  operationId: "legacyGetVisibility",
  tag: "Legacy interface",
  legacy: true,
  summary: "AI visibility series with scores",
  description:
    "GET /api/v1/visibility's citation and mention rates per engine and overall, per UTC day, plus the mean visibility score (0..100) of the observed answers: 50 when cited, + 30 × position weight when mentioned, + 20 positive / 10 neutral sentiment.",
  query: legacyVisibilityQuery,
  queryExample: { domain: EXAMPLE_DOMAIN, days: "30" },
  success: {
    status: 200,
    description: "The visibility series.",
    data: { name: "LegacyVisibility", schema: legacyVisibilityResult },
  },
  errors: ["VALIDATION_ERROR"],
});

/** GET /analytics/reports?domain=&period=week|month&format=json|csv: a performance report. */
export const legacyGetReportRoute = defineRoute({
  method: "get",
  path: "/analytics/reports",
  operationId: "legacyGetReport",
  tag: "Legacy interface",
  legacy: true,
  summary: "A performance report (JSON or CSV)",
  description:
    "A registered domain's last week (7 UTC days, today included) or month (30) against the period before: bot visits by bot and purpose, AI citations by engine and page, AI visibility, and the latest audit scores of its pages (audits and seo-aeo-geo-audit jobs of the last 7 days). Each figure has `current`, `previous` and `change` (relative; null when previous is 0). `format=csv` answers `text/csv` with one row per figure.",
  query: reportQuery,
  queryExample: { domain: EXAMPLE_DOMAIN, period: "week" },
  success: {
    status: 200,
    description: "The report.",
    data: { name: "PerformanceReport", schema: performanceReport },
  },
  errors: ["VALIDATION_ERROR"],
});
