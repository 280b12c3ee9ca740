// The webhook API's shapes (client-safe: zod only). Used by the routes, the OpenAPI document and the dashboard.
import { z } from "zod";
import { httpUrl } from "@/lib/contract/http-url";
import { queryInt } from "@/lib/contract/query";
import { WEBHOOK_EVENTS } from "./events";

export type { WebhookEvent } from "./events";

/** Endpoints per account. */
export const MAX_ENDPOINTS = 10;

/** After attempt n fails, the next one waits RETRY_SCHEDULE_SECONDS[n - 1]; after the last, the delivery fails. */
export const RETRY_SCHEDULE_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;
export const DELIVERY_TIMEOUT_MS = 10_000;
/** An endpoint whose deliveries fail for this long without a success is disabled. */
export const DISABLE_AFTER_FAILING_DAYS = 5;
/** After a rotation the previous secret signs beside the new one this long. */
export const PREVIOUS_SECRET_HOURS = 24;

export const webhookCreateInput = z.strictObject({
  url: httpUrl.describe("Where events are POSTed: a public http(s) URL (https recommended)."),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1)
    .max(WEBHOOK_EVENTS.length)
    .refine((list) => new Set(list).size === list.length, "Each event type once.")
    .describe("The event types to receive."),
  description: z.string().trim().min(1).max(200).optional(),
});
export type WebhookCreateInput = z.infer<typeof webhookCreateInput>;

export const webhookEndpointView = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  description: z.string().nullable(),
  enabled: z.boolean(),
  disabledAt: z.string().nullable().describe("ISO 8601; set when 5 days of failed deliveries disabled it."),
  disabledReason: z.string().nullable(),
  createdAt: z.string(),
  secretRotatedUntil: z
    .string()
    .nullable()
    .describe("While set, the previous secret still signs beside the current one (24 h after a rotation)."),
});
export type WebhookEndpointView = z.infer<typeof webhookEndpointView>;

export const webhookWithSecret = webhookEndpointView.extend({
  secret: z.string().describe("The `whsec_…` signing secret. Shown once: store it now."),
});
export const webhookList = z.object({ webhooks: z.array(webhookEndpointView) });
export const webhookDeleted = z.object({ id: z.uuid(), deleted: z.literal(true) });

export const deliveryView = z.object({
  id: z.uuid(),
  eventId: z.string().describe("The `webhook-id` header of the message."),
  eventType: z.string(),
  status: z.enum(["pending", "succeeded", "failed"]),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  error: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable().describe("When the next attempt is due (pending deliveries)."),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type DeliveryView = z.infer<typeof deliveryView>;
export const deliveryList = z.object({ deliveries: z.array(deliveryView) });

export const deliveriesQuery = z.object({
  limit: queryInt(1, 100, 50).describe("1..100, default 50."),
});

export const webhookTestResult = z.object({
  eventId: z.string(),
  deliveries: z.number().int().describe("Deliveries queued (one per endpoint)."),
});
