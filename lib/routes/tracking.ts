import { z } from "zod";
import {
  CITATIONS_DAYS,
  CITATIONS_LIMIT,
  citationsQuery,
  citationsResult,
  eventsIngestResult,
  LOG_REJECTED_REPORTED,
  logsIngestQuery,
  logsIngestResult,
  trackingStatsQuery,
  trackingStatsResult,
} from "@/lib/tracking/api-schemas";
import { MAX_EVENTS_PER_BATCH, trackingEventBatch } from "@/lib/tracking/ingest/event-schema";
import { MAX_LOG_BYTES } from "@/lib/tracking/ingest/log-upload";
import { defineRoute } from "./contract";
import { EXAMPLE_DOMAIN, exampleTrackingEvents } from "./examples";

/** GET /tracking/stats?domain=: bot visit statistics of a registered domain (free, cached ~2 min). */
export const getTrackingStatsRoute = defineRoute({
  method: "get",
  path: "/tracking/stats",
  operationId: "getTrackingStats",
  tag: "Tracking",
  summary: "Bot visit statistics of a registered domain",
  description:
    "Visits by AI and search bots to a domain registered on the account: totals, unique bots, the last 30 days, the top 10 bots and pages. Cached about 2 minutes. A domain not registered on the account is 403 `FORBIDDEN_SCOPE`.",
  query: trackingStatsQuery,
  queryExample: { domain: EXAMPLE_DOMAIN },
  success: {
    status: 200,
    description: "Bot visit statistics.",
    data: { name: "TrackingStats", schema: trackingStatsResult },
  },
  errors: ["VALIDATION_ERROR"],
});

/** GET /citations?domain=&days=&limit=: AI-engine citations of a registered domain (free, cached ~2 min). */
export const getCitationsRoute = defineRoute({
  method: "get",
  path: "/citations",
  operationId: "getCitations",
  tag: "Tracking",
  summary: "AI-engine citations of a registered domain",
  description: `Visits that show an AI engine citing the domain (an engine's user-triggered fetcher, or a person referred by an engine) over the last \`days\`. Cached about 2 minutes. \`days\` above ${CITATIONS_DAYS.max} or \`limit\` above ${CITATIONS_LIMIT.max} are 400, never clamped.`,
  query: citationsQuery,
  queryExample: {
    domain: EXAMPLE_DOMAIN,
    days: String(CITATIONS_DAYS.default),
    limit: String(CITATIONS_LIMIT.default),
  },
  success: {
    status: 200,
    description: "Citations.",
    data: { name: "Citations", schema: citationsResult },
  },
  errors: ["VALIDATION_ERROR"],
});

/** POST /tracking/events: a batch of visits; each validated alone; idempotent per event (free). */
export const ingestTrackingEventsRoute = defineRoute({
  method: "post",
  path: "/tracking/events",
  operationId: "ingestTrackingEvents",
  tag: "Tracking",
  summary: "Send bot visits (batched JSON events)",
  description: `Up to ${MAX_EVENTS_PER_BATCH} visits per request, from a server middleware. Each event is validated on its own: bad events come back in \`rejected\` by index, the rest are recorded; a repeated event (same \`id\`, or same fields) is not counted twice. Every event's domain must be registered on the account; a batch one of whose domains is removed while it is being stored is refused whole (403, nothing stored).`,
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

/** POST /tracking/logs?domain=: an access log (text, JSON lines or a JSON array; plain or gzip) of one domain. */
export const ingestTrackingLogsRoute = defineRoute({
  method: "post",
  path: "/tracking/logs",
  operationId: "ingestTrackingLogs",
  tag: "Tracking",
  summary: "Upload an access log (server, CDN or log-drain format)",
  description: `The raw access log of one registered domain as the request body (\`text/plain\`, or \`application/json\` / \`application/x-ndjson\` as log drains send them, or no content type as Cloudflare Logpush may send it, optionally with \`Content-Encoding: gzip\`, or \`application/gzip\`; at most ${MAX_LOG_BYTES / (1024 * 1024)} MB of text), the domain in the \`domain\` query parameter (parameters named \`header_…\`, which Cloudflare Logpush turns into request headers, are ignored should they stay in the URL). Unreadable lines are reported (the first ${LOG_REJECTED_REPORTED}, and a count), never fatal; uploading the same log twice records nothing new.`,
  query: logsIngestQuery,
  ignoredQueryPrefix: "header_",
  queryExample: { domain: EXAMPLE_DOMAIN },
  body: {
    name: "AccessLog",
    schema: z
      .string()
      .describe("The log: its lines in one of the formats `format` names, or a JSON array of records."),
    contentType: "text/plain",
    example:
      '20.171.207.1 - - [01/Jan/2026:12:00:00 +0000] "GET /pricing HTTP/1.1" 200 5120 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot"\n',
  },
  success: {
    status: 200,
    description: "What was recorded.",
    data: { name: "LogsIngestResult", schema: logsIngestResult },
  },
  errors: ["VALIDATION_ERROR"],
});
