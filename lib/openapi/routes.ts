import { z } from "zod";
import { enginesResult, visibilityQuery, visibilityResult } from "@/lib/ai-visibility/api-schemas";
import type { AnyRouteContract } from "@/lib/routes/contract";
import { EXAMPLE_DOMAIN, exampleTrackingEvents } from "@/lib/routes/examples";
import { TOOL_NAMES } from "@/lib/tools/catalog";
import {
  citationsQuery,
  citationsResult,
  domainDeleteResult,
  domainInput,
  domainListResult,
  domainResult,
  domainVerifyResult,
  eventsIngestResult,
  logsIngestQuery,
  logsIngestResult,
  trackingStatsQuery,
  trackingStatsResult,
} from "@/lib/tracking/api-schemas";
import { trackingEventSchema } from "@/lib/tracking/ingest/event-schema";
import { jsonRpcMessage } from "./schemas";

export { type BodySchema, TAGS, type Tag } from "@/lib/routes/contract";
export { pascal, toolAvailable, toolCost } from "@/lib/routes/tools";

/** An operation not yet declared as a route contract (lib/routes): the same shape, listed here by hand. */
export type ApiOperation = AnyRouteContract;

const domainParam = {
  name: "domain",
  description: "A domain registered on the account.",
  schema: z.string().max(253),
  example: EXAMPLE_DOMAIN,
};

/** Every /api/v1 operation. Adding an endpoint to the document is one entry here. */
export const API_OPERATIONS: ApiOperation[] = [
  {
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
  },
  {
    method: "get",
    path: "/citations",
    operationId: "getCitations",
    tag: "Tracking",
    summary: "AI-engine citations of a registered domain",
    description:
      "Visits that show an AI engine citing the domain (an engine's user-triggered fetcher, or a person referred by an engine) over the last `days`. Cached about 2 minutes. `days` above 90 or `limit` above 200 are 400, never clamped.",
    query: citationsQuery,
    queryExample: { domain: EXAMPLE_DOMAIN, days: "30", limit: "50" },
    success: {
      status: 200,
      description: "Citations.",
      data: { name: "Citations", schema: citationsResult },
    },
    errors: ["VALIDATION_ERROR"],
  },
  {
    method: "get",
    path: "/engines",
    operationId: "listEngines",
    tag: "AI visibility",
    summary: "The AI engines and whether each is configured here",
    description:
      "ChatGPT, Perplexity, Claude and Gemini, each with whether this server holds its provider's key (the key itself is never shown) and the model it is asked with. An engine that is not configured is refused by /ai-citation-check and /brand-visibility with 400 `VALIDATION_ERROR` before any charge. Free.",
    success: {
      status: 200,
      description: "The engines.",
      data: { name: "Engines", schema: enginesResult },
    },
    errors: [],
  },
  {
    method: "get",
    path: "/visibility",
    operationId: "getVisibility",
    tag: "AI visibility",
    summary: "AI-engine citation and mention rates of a registered domain over time",
    description:
      "What the completed /ai-citation-check and /brand-visibility jobs of the account observed about a domain registered on it: per engine and overall, the share of answers that cited the domain and the share that mentioned it, per UTC day over the last `days` (today included). Observations are kept 13 months; `days` above 395 is 400, never clamped. A domain not registered on the account is 403 `FORBIDDEN_SCOPE`. Free.",
    query: visibilityQuery,
    queryExample: { domain: EXAMPLE_DOMAIN, days: "30" },
    success: {
      status: 200,
      description: "Citation and mention rates.",
      data: { name: "Visibility", schema: visibilityResult },
    },
    errors: ["VALIDATION_ERROR"],
  },
  {
    method: "post",
    path: "/tracking/events",
    operationId: "ingestTrackingEvents",
    tag: "Tracking",
    summary: "Send bot visits (batched JSON events)",
    description:
      "Up to 1000 visits per request, from a server middleware. Each event is validated on its own: bad events come back in `rejected` by index, the rest are recorded; a repeated event (same `id`, or same fields) is not counted twice. Every event's domain must be registered on the account.",
    body: {
      name: "TrackingEventBatch",
      schema: z.object({ events: z.array(trackingEventSchema).min(1).max(1000) }),
      example: exampleTrackingEvents(),
    },
    success: {
      status: 200,
      description: "What was recorded.",
      data: { name: "EventsIngestResult", schema: eventsIngestResult },
    },
    errors: ["VALIDATION_ERROR"],
  },
  {
    method: "post",
    path: "/tracking/logs",
    operationId: "ingestTrackingLogs",
    tag: "Tracking",
    summary: "Upload an access log (combined or common log format)",
    description:
      "The raw access log of one registered domain as the request body (`text/plain`, optionally with `Content-Encoding: gzip`, or `application/gzip`; at most 10 MB of text), the domain in the `domain` query parameter. Unreadable lines are reported (the first 100, and a count), never fatal; uploading the same log twice records nothing new.",
    query: logsIngestQuery,
    queryExample: { domain: EXAMPLE_DOMAIN },
    body: {
      name: "AccessLog",
      schema: z.string().describe("Access log lines in combined or common log format."),
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
  },
  {
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
  },
  {
    method: "post",
    path: "/domains",
    operationId: "registerDomain",
    tag: "Domains",
    summary: "Register a domain",
    description:
      "Registers a domain on the account so that its bot visits can be sent and read. The answer carries the DNS TXT record and the file that verify ownership.",
    body: { name: "DomainInput", schema: domainInput, example: { domain: EXAMPLE_DOMAIN } },
    postman: { domainVariable: "newDomain", freshDomain: true },
    success: {
      status: 201,
      description: "The registered domain.",
      data: { name: "Domain", schema: domainResult },
    },
    errors: ["VALIDATION_ERROR"],
  },
  {
    method: "get",
    path: "/domains/{domain}",
    operationId: "getDomain",
    tag: "Domains",
    summary: "One registered domain",
    description:
      "A domain of the account with its verification state and instructions; 404 when it is not on the account.",
    pathParams: [domainParam],
    postman: { domainVariable: "newDomain" },
    success: { status: 200, description: "The domain.", data: { name: "Domain", schema: domainResult } },
    errors: ["NOT_FOUND"],
  },
  {
    method: "post",
    path: "/domains/{domain}/verify",
    operationId: "verifyDomain",
    tag: "Domains",
    summary: "Check a domain's ownership proof",
    description: "Looks for the DNS TXT record or the verification file and reports each check.",
    pathParams: [domainParam],
    postman: { domainVariable: "newDomain" },
    success: {
      status: 200,
      description: "The domain with the checks made.",
      data: { name: "DomainVerification", schema: domainVerifyResult },
    },
    errors: ["NOT_FOUND"],
  },
  {
    method: "delete",
    path: "/domains/{domain}",
    operationId: "deleteDomain",
    tag: "Domains",
    summary: "Remove a registered domain",
    description: "Removes the domain from the account, with its recorded visits.",
    pathParams: [domainParam],
    postman: { domainVariable: "newDomain" },
    success: {
      status: 200,
      description: "The domain was removed.",
      data: { name: "DomainDeleted", schema: domainDeleteResult },
    },
    errors: ["NOT_FOUND"],
  },
  {
    method: "post",
    path: "/mcp",
    operationId: "mcp",
    tag: "MCP",
    summary: "Hosted MCP server (Streamable HTTP, stateless)",
    description: `A Model Context Protocol server for AI assistants and agent frameworks, over Streamable HTTP in stateless mode with JSON responses (send \`Accept: application/json, text/event-stream\`). Same credentials, rate limit and credit billing as the REST API: each JSON-RPC message counts against the limit (a batch counts each of its messages), at most 4 \`wait_for_job\` calls per key wait at once (more are \`RATE_LIMITED\` tool errors), and each tool costs what its endpoint costs. Tools: one per tool endpoint (${TOOL_NAMES.map((name) => `\`${name.replaceAll("-", "_")}\``).join(", ")}), plus \`get_job\`, \`wait_for_job\`, \`list_jobs\`, \`get_credits\`, \`get_bot_stats\`, \`get_citations\`, \`list_engines\`, \`get_visibility\`. API errors come back as tool results with \`isError: true\`, text \`CODE: message\` and \`structuredContent\` \`{code, message, details}\`. Answers are JSON-RPC, not the envelope, except authentication and rate-limit errors, which are the envelope with their HTTP status.`,
    body: {
      name: "McpMessage",
      schema: jsonRpcMessage,
      example: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
    },
    success: {
      status: 200,
      description: "The JSON-RPC response (202 with no body for a notification).",
      raw: { name: "McpResponse", schema: jsonRpcMessage },
    },
    errors: [],
  },
  {
    method: "get",
    path: "/openapi.json",
    operationId: "getOpenApiDocument",
    tag: "Meta",
    summary: "This OpenAPI 3.1 document",
    description:
      "The OpenAPI 3.1 document of /api/v1, generated from the zod schemas the routes validate with. Public: no credentials needed. The body is the document itself, not the envelope.",
    public: true,
    success: { status: 200, description: "The OpenAPI document.", raw: { ref: "OpenApiDocument" } },
    errors: [],
  },
  {
    method: "get",
    path: "/postman.json",
    operationId: "getPostmanCollection",
    tag: "Meta",
    summary: "A Postman collection of every endpoint",
    description:
      "A Postman v2.1 collection generated from this document, importable as is (the body is the collection, not the envelope): folders per tag, variables `baseUrl`, `apiKey`, `apiSecret`, `domain`, `siteUrl`, an example body and a test script per request. Run it with newman: `newman run postman.json --env-var baseUrl=… --env-var apiKey=… --env-var apiSecret=…`.",
    success: { status: 200, description: "The collection.", raw: { ref: "PostmanCollection" } },
    errors: [],
  },
];
