import { z } from "zod";
import {
  deliveriesQuery,
  deliveryList,
  deliveryView,
  webhookCreateInput,
  webhookDeleted,
  webhookEndpointView,
  webhookList,
  webhookTestResult,
  webhookWithSecret,
} from "@/lib/webhooks/schemas";
import { defineRoute } from "./contract";
import { EXAMPLE_WEBHOOK_URL } from "./examples";

export const webhookIdParam = {
  name: "id",
  description: "The webhook endpoint's id.",
  schema: z.uuid(),
  example: "00000000-0000-4000-8000-000000000001",
  notFound: "Webhook endpoint",
} as const;
const deliveryIdParam = {
  name: "deliveryId",
  description: "A delivery's id (from the delivery log).",
  schema: z.uuid(),
  example: "00000000-0000-4000-8000-000000000002",
  notFound: "Delivery",
} as const;

/** How every event is sent and signed (the create operations of both interfaces describe it). */
export const SIGNING = `Each event is POSTed as JSON \`{type, timestamp, data}\` and signed per Standard Webhooks: headers \`webhook-id\` (\`msg_…\`, the same on every retry), \`webhook-timestamp\` (Unix seconds) and \`webhook-signature\` (\`v1,<base64 HMAC-SHA256 of id.timestamp.body>\` with the endpoint's \`whsec_…\` secret; within 24 h of a rotation a second \`v1,…\` with the previous secret). Verify with any Standard Webhooks library. A 2xx within 10 s is a success; redirects are not followed; otherwise it is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then marked failed. An endpoint whose deliveries fail for 5 days is disabled and the owner told in the dashboard. Targets must be public http(s) addresses.`;

/** The body of an endpoint's creation (v1 and the older interface alike). */
export const webhookCreateBody = {
  name: "WebhookCreateInput",
  schema: webhookCreateInput,
  example: { url: EXAMPLE_WEBHOOK_URL, events: ["job.completed", "job.failed"] },
};

/** GET /webhooks: the account's webhook endpoints, never their secrets (free). */
export const listWebhooksRoute = defineRoute({
  method: "get",
  path: "/webhooks",
  operationId: "listWebhooks",
  tag: "Webhooks",
  summary: "The account's webhook endpoints",
  description: "Every webhook endpoint of the account, without its secret.",
  success: {
    status: 200,
    description: "The endpoints.",
    data: { name: "WebhookList", schema: webhookList },
  },
  errors: [],
});

/** POST /webhooks: add an endpoint; 201 with its signing secret, shown once (free). */
export const createWebhookRoute = defineRoute({
  method: "post",
  path: "/webhooks",
  operationId: "createWebhook",
  tag: "Webhooks",
  summary: "Add a webhook endpoint",
  description: `Adds an endpoint for the event types listed (at most 10 endpoints per account). The answer carries its signing secret, shown once. A URL that is not public (loopback, private, link-local, metadata addresses, or a host resolving to them) is 400.\n\n${SIGNING}`,
  body: webhookCreateBody,
  success: {
    status: 201,
    description: "The endpoint, with its secret (shown once).",
    data: { name: "WebhookWithSecret", schema: webhookWithSecret },
  },
  errors: ["VALIDATION_ERROR"],
});

/** GET /webhooks/{id}: one endpoint (free). */
export const getWebhookRoute = defineRoute({
  method: "get",
  path: "/webhooks/{id}",
  operationId: "getWebhook",
  tag: "Webhooks",
  summary: "One webhook endpoint",
  description: "An endpoint of the account (without its secret); 404 when it is not the account's.",
  pathParams: [webhookIdParam],
  success: {
    status: 200,
    description: "The endpoint.",
    data: { name: "WebhookEndpoint", schema: webhookEndpointView },
  },
  errors: ["NOT_FOUND"],
});

/** POST /webhooks/{id}/rotate-secret: a new signing secret (shown once); the old one signs too for 24 h. */
export const rotateWebhookSecretRoute = defineRoute({
  method: "post",
  path: "/webhooks/{id}/rotate-secret",
  operationId: "rotateWebhookSecret",
  tag: "Webhooks",
  summary: "Rotate an endpoint's signing secret",
  description:
    "A new `whsec_…` secret, shown once. For 24 h the previous secret signs beside it (two `v1,` signatures), so the receiver can switch without missing an event.",
  pathParams: [webhookIdParam],
  success: {
    status: 200,
    description: "The endpoint with its new secret.",
    data: { name: "WebhookWithSecret", schema: webhookWithSecret },
  },
  errors: ["NOT_FOUND"],
});

/** POST /webhooks/{id}/enable: turn a disabled endpoint back on. */
export const enableWebhookRoute = defineRoute({
  method: "post",
  path: "/webhooks/{id}/enable",
  operationId: "enableWebhook",
  tag: "Webhooks",
  summary: "Enable a disabled endpoint",
  description:
    "Turns an endpoint disabled after 5 days of failures back on; its failure clock starts afresh.",
  pathParams: [webhookIdParam],
  success: {
    status: 200,
    description: "The endpoint.",
    data: { name: "WebhookEndpoint", schema: webhookEndpointView },
  },
  errors: ["NOT_FOUND"],
});

/** POST /webhooks/{id}/test: queue a webhook.test event for this endpoint (202; see its deliveries). */
export const sendWebhookTestRoute = defineRoute({
  method: "post",
  path: "/webhooks/{id}/test",
  operationId: "sendWebhookTest",
  tag: "Webhooks",
  postman: { before: ["listWebhookDeliveries", "redeliverWebhook"] },
  summary: "Send a test event",
  description:
    "Queues a `webhook.test` event for this endpoint (whatever types it subscribed to); the job runner sends it within a second or two. Follow it in the delivery log. A disabled endpoint is 400; more than 5 test events a minute to one URL (whichever endpoints or accounts name it) is 429.",
  pathParams: [webhookIdParam],
  success: {
    status: 202,
    description: "The event was queued.",
    data: { name: "WebhookTestResult", schema: webhookTestResult },
  },
  errors: ["NOT_FOUND", "VALIDATION_ERROR", "RATE_LIMITED"],
});

/** GET /webhooks/{id}/deliveries?limit=: the endpoint's delivery log, newest first. */
export const listWebhookDeliveriesRoute = defineRoute({
  method: "get",
  path: "/webhooks/{id}/deliveries",
  operationId: "listWebhookDeliveries",
  tag: "Webhooks",
  summary: "An endpoint's delivery log",
  description:
    "The endpoint's deliveries, newest first: status (`pending`, `succeeded`, `failed`), attempts, the last response code and latency, the last error, and when the next attempt is due. Kept 30 days.",
  pathParams: [webhookIdParam],
  query: deliveriesQuery,
  queryExample: { limit: "50" },
  success: {
    status: 200,
    description: "The deliveries.",
    data: { name: "WebhookDeliveryList", schema: deliveryList },
  },
  errors: ["NOT_FOUND", "VALIDATION_ERROR"],
});

/** POST /webhooks/{id}/deliveries/{deliveryId}/redeliver: send that message again (202, a new delivery). */
export const redeliverWebhookRoute = defineRoute({
  method: "post",
  path: "/webhooks/{id}/deliveries/{deliveryId}/redeliver",
  operationId: "redeliverWebhook",
  tag: "Webhooks",
  summary: "Send a delivery's message again",
  description:
    "Queues the same message (same `webhook-id`, so receivers can deduplicate) as a new delivery with its own attempts and retries.",
  pathParams: [webhookIdParam, deliveryIdParam],
  success: {
    status: 202,
    description: "The new delivery.",
    data: { name: "WebhookDelivery", schema: deliveryView },
  },
  errors: ["NOT_FOUND", "VALIDATION_ERROR"],
});

/** DELETE /webhooks/{id}: remove the endpoint and its delivery log. */
export const deleteWebhookRoute = defineRoute({
  method: "delete",
  path: "/webhooks/{id}",
  operationId: "deleteWebhook",
  tag: "Webhooks",
  summary: "Remove a webhook endpoint",
  description: "Removes the endpoint with its delivery log; nothing more is sent to it.",
  pathParams: [webhookIdParam],
  success: {
    status: 200,
    description: "The endpoint was removed.",
    data: { name: "WebhookDeleted", schema: webhookDeleted },
  },
  errors: ["NOT_FOUND"],
});
