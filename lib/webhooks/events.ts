// The webhook event names, apart from the API's zod shapes (schemas.ts): the dashboard's client components
// list them without bringing zod to the pages.
export const WEBHOOK_EVENTS = [
  "job.completed",
  "job.failed",
  "citation.detected",
  "credits.low",
  "webhook.test",
  "monitor.run_completed",
  "monitor.run_skipped",
  "visibility.changed",
  "citation.gained",
  "citation.lost",
  "audit.completed",
  "audit.regressed",
  "audit.run_skipped",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
