import { z } from "zod";
import { enginesResult, visibilityQuery, visibilityResult } from "@/lib/ai-visibility/api-schemas";
import type { ErrorCode } from "@/lib/api/errors";
import {
  searchConsoleQuery,
  searchConsoleResult,
  trafficQuery,
  trafficResult,
} from "@/lib/connections/api-schemas";
import { listJobsQuery } from "@/lib/jobs/list";
import { pricingText, TOOL_NAMES, TOOLS, type ToolName } from "@/lib/tools/catalog";
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
import { EXAMPLE_DOMAIN, exampleTrackingEvents, TOOL_EXAMPLES } from "./examples";
import { auditsJobCreated, creditAccount, jobCreated, jobList, jsonRpcMessage } from "./schemas";

export const TAGS = [
  {
    name: "Tools",
    description: "Credit-billed tools. Each POST creates an asynchronous job (202) and charges its cost.",
  },
  { name: "Jobs", description: "Poll a job until it is completed or failed. Free." },
  { name: "Credits", description: "The credit balance and its ledger. Free." },
  {
    name: "Tracking",
    description: "AI and search bot visits of your registered domains: ingest and reports. Free.",
  },
  { name: "Domains", description: "The domains registered on the account. Free." },
  {
    name: "AI visibility",
    description: "The AI engines this server asks, and what completed AI checks observed over time. Free.",
  },
  {
    name: "Search and analytics",
    description:
      "The account's own Google Search Console and web analytics (GA4 or Plausible), read through the connections made in the dashboard. Free.",
  },
  { name: "MCP", description: "The hosted Model Context Protocol endpoint for AI assistants." },
  { name: "Meta", description: "This document and the Postman collection." },
] as const;
export type Tag = (typeof TAGS)[number]["name"];

/** A response body: a zod schema (named as a component) or a reference to a component built elsewhere. */
export type BodySchema = { name: string; schema: z.ZodType } | { ref: string };

export interface ApiOperation {
  method: "get" | "post" | "delete";
  /** OpenAPI path under /api/v1, with {param}s. */
  path: string;
  operationId: string;
  tag: Tag;
  summary: string;
  description: string;
  /** No credentials needed (only the OpenAPI document itself). */
  public?: boolean;
  pathParams?: { name: string; description: string; schema: z.ZodType; example: string }[];
  query?: z.ZodObject;
  queryExample?: Record<string, string>;
  body?: { name: string; schema: z.ZodType; example: unknown; contentType?: string; description?: string };
  /** Tool POSTs accept an Idempotency-Key header. */
  idempotencyKey?: boolean;
  success: {
    status: 200 | 201 | 202;
    description: string;
    /** `data` of the envelope, or (raw) the whole body when the answer is not enveloped. */
    data?: BodySchema;
    raw?: BodySchema;
    location?: boolean;
  };
  /** Errors particular to this operation; authenticated operations add 401, 403, 429 and 500. */
  errors: ErrorCode[];
  /** Credits charged, in words, for tool endpoints. */
  cost?: string;
  /** The tool whose job a POST creates. */
  tool?: ToolName;
  /**
   * Reads a customer's own data through a dashboard connection (Google, Plausible): Postman's test accepts
   * the documented 400 `not_connected` as well, since a fresh account has none.
   */
  needsConnection?: true;
  /**
   * Postman: the collection variable that stands for `domain` here (default `domain`, the account's own),
   * and whether the request first sets it to a fresh name (so a run registers and removes its own domain).
   */
  postman?: { domainVariable: string; freshDomain?: boolean };
}

export const pascal = (name: string) =>
  name
    .split(/[-_]/)
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join("");

export const toolAvailable = (name: ToolName) => !TOOLS[name].unavailable;

export const toolCost = (name: ToolName): string => pricingText(TOOLS[name]);

function toolOperation(name: ToolName): ApiOperation {
  const tool = TOOLS[name];
  const resultNote = toolAvailable(name)
    ? `Once the job is completed, \`data.result\` of GET /jobs/{jobId} is a \`${pascal(name)}Result\`.`
    : "**Not available on this server yet**: the job is created and charged, then fails with `TOOL_UNAVAILABLE` and its credits are refunded automatically. The input schema and cost are final, so clients can integrate now.";
  return {
    method: "post",
    path: `/${name}`,
    operationId: `create${pascal(name)}Job`,
    tag: "Tools",
    summary: tool.summary,
    description: `${tool.summary}\n\nCosts ${toolCost(name)}, charged when the job is created and refunded if it fails. Answers 202 with the job in state \`pending\` and a \`Location\` header; poll GET /jobs/{jobId} every few seconds. ${resultNote}\n\nSend an \`Idempotency-Key\` header to make retries safe: a replay with the same body returns the original job without a second charge.`,
    body: { name: `${pascal(name)}Input`, schema: tool.input, example: TOOL_EXAMPLES[name] },
    idempotencyKey: true,
    success: {
      status: 202,
      description: "The job was created in state pending and its cost charged.",
      data:
        tool.creationShape === "with-charge"
          ? { name: "AuditsJobCreated", schema: auditsJobCreated }
          : { name: "JobCreated", schema: jobCreated },
      location: true,
    },
    errors: ["VALIDATION_ERROR", "INSUFFICIENT_CREDITS"],
    cost: toolCost(name),
    tool: name,
  };
}

const domainParam = {
  name: "domain",
  description: "A domain registered on the account.",
  schema: z.string().max(253),
  example: EXAMPLE_DOMAIN,
};

/** Every /api/v1 operation. Adding an endpoint to the document is one entry here. */
export const API_OPERATIONS: ApiOperation[] = [
  ...TOOL_NAMES.map(toolOperation),
  {
    method: "get",
    path: "/jobs/{jobId}",
    operationId: "getJob",
    tag: "Jobs",
    summary: "A job, with its result once completed",
    description:
      "One of the account's jobs. `result` is present once status is `completed` (its shape depends on `tool`); `error` once it is `failed`, with `creditsRefunded` true. A jobId that does not exist, is not a UUID, belongs to another account or was purged after 7 days is `NOT_FOUND`.",
    pathParams: [
      {
        name: "jobId",
        description: "The jobId a tool endpoint returned.",
        schema: z.uuid(),
        example: "00000000-0000-4000-8000-000000000000",
      },
    ],
    success: { status: 200, description: "The job.", data: { ref: "Job" } },
    errors: ["NOT_FOUND"],
  },
  {
    method: "get",
    path: "/jobs",
    operationId: "listJobs",
    tag: "Jobs",
    summary: "The account's jobs, newest first",
    description:
      "The account's jobs of the last 7 days, newest first, without results (GET /jobs/{jobId} has the result). Filter by `status` and `tool`; page with `cursor` (the previous page's `nextCursor`). Unknown or repeated query parameters are 400.",
    query: listJobsQuery,
    queryExample: { limit: "20" },
    success: { status: 200, description: "A page of jobs.", data: { name: "JobList", schema: jobList } },
    errors: ["VALIDATION_ERROR"],
  },
  {
    method: "get",
    path: "/credits",
    operationId: "getCredits",
    tag: "Credits",
    summary: "Credit balance and recent transactions",
    description:
      "The balance, the credits spent in total and the 20 most recent ledger transactions (grants, spends, automatic refunds of failed jobs, purchases, adjustments). Free.",
    success: {
      status: 200,
      description: "The credit account.",
      data: { name: "CreditAccount", schema: creditAccount },
    },
    errors: [],
  },
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
    method: "get",
    path: "/search-console/queries",
    operationId: "getSearchConsoleQueries",
    tag: "Search and analytics",
    summary: "Google Search Console figures of a registered domain",
    description:
      "Clicks, impressions, CTR and average position from the account's connected Google Search Console (connect Google on the dashboard's Connections page), by `dimensions` (comma-separated: query, page, country, device, date; default query) over the last `days` UTC days (default 28, max 480), at most 1000 rows, most clicked first, with the window's totals. The property read is the domain property (`sc-domain:`) when the grant reaches it, else the domain's URL-prefix property. Not connected, or a grant Google no longer accepts: 400 `VALIDATION_ERROR` with `details.reason` `not_connected` or `reconnect_required` and `details.connectUrl` (a revoked grant is not retried until reconnected). A property the grant may not read: 403 `FORBIDDEN_SCOPE`. A domain not registered on the account: 403. Free.",
    query: searchConsoleQuery,
    queryExample: { domain: EXAMPLE_DOMAIN, days: "28", dimensions: "query,device" },
    needsConnection: true,
    success: {
      status: 200,
      description: "Search Console figures.",
      data: { name: "SearchConsoleQueries", schema: searchConsoleResult },
    },
    errors: ["VALIDATION_ERROR"],
  },
  {
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
