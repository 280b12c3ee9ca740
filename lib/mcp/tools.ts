import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { VISIBILITY_DAYS } from "@/lib/ai-visibility/api-schemas";
import { listCapabilities } from "@/lib/capabilities";
import { idempotencyKeySchema } from "@/lib/contract/idempotency-key";
import { toJsonSchema } from "@/lib/contract/json-schema";
import { getCreditAccount, RECENT_TRANSACTIONS } from "@/lib/credits/credits";
import { notFound, parseValue } from "@/lib/errors";
import type { PagesRequest } from "@/lib/funnel/page-funnel";
import { createJob, requestHash } from "@/lib/jobs/create";
import { type ListJobsQuery, listJobs } from "@/lib/jobs/list";
import { getJob } from "@/lib/jobs/queries";
import { pollUrl, toJobView } from "@/lib/jobs/view";
import { getCapabilitiesRoute } from "@/lib/routes/capabilities";
import { parsePathParam, routeArgs } from "@/lib/routes/contract";
import { getCreditsRoute } from "@/lib/routes/credits";
import { getJobRoute, listJobsRoute } from "@/lib/routes/jobs";
import { pricingText, TOOL_NAMES, TOOLS } from "@/lib/tools/catalog";
import { readServerEnv } from "@/lib/tools/server-env";
import type { AnyTool } from "@/lib/tools/types";
import { connectionInputs, readSearchConsole, readTraffic } from "./connections";
import { monitorTools } from "./monitors";
import { scheduleTools } from "./schedules";
import type { McpContext, McpToolDef } from "./tool-def";
import {
  describeEngines,
  enginesInput,
  readBotStats,
  readCitations,
  readPageFunnel,
  readVisibilityReport,
  trackingInputs,
  visibilityInput,
} from "./tracking";
import { acquireWaitSlot, WAITS_PER_KEY } from "./wait-slots";

export type { McpContext, McpToolDef } from "./tool-def";

/** MCP tool names are the endpoint names with underscores: llms-txt → llms_txt. */
export const mcpToolName = (endpoint: string) => endpoint.replaceAll("-", "_");

export const WAIT_MAX_SECONDS = 60;
export const WAIT_DEFAULT_SECONDS = 30;
const WAIT_POLL_MS = 500;

/** The billed tools' extra argument: the REST `Idempotency-Key` header as an argument. */
const idempotencyArg = z.object({
  idempotencyKey: idempotencyKeySchema
    .optional()
    .describe(
      "Makes a retry safe: a second call with the same key and arguments returns the original job without a second charge (the same keys as the REST Idempotency-Key header).",
    ),
});

function billedTool(tool: AnyTool): McpToolDef {
  const unavailable = tool.unavailable
    ? " It is not available on this server yet: its jobs fail with TOOL_UNAVAILABLE and the credits are refunded."
    : "";
  return {
    name: mcpToolName(tool.name),
    description: `${tool.summary} Costs ${pricingText(tool)}. Starts an asynchronous job (charged now, refunded if it fails) and returns its jobId; call wait_for_job or get_job for the result.${unavailable}`,
    input: tool.input,
    extraArgs: idempotencyArg,
    annotations: {
      title: tool.title,
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      // Every tool job fetches customer pages or asks outside providers.
      openWorldHint: true,
    },
    async run(ctx, args) {
      const { idempotencyKey, ...rest } = (args ?? {}) as Record<string, unknown>;
      const key = parseValue(idempotencyArg, { idempotencyKey }).idempotencyKey;
      const input = parseValue(tool.input, rest);
      const { job, replayed } = await createJob(ctx.db, {
        accountId: ctx.accountId,
        tool,
        input,
        // The same hash as POST /api/v1/<tool>, so a key means the same request on either edge.
        idempotency: key
          ? { key, requestHash: requestHash("POST", `/api/v1/${tool.name}`, rest) }
          : undefined,
      });
      return {
        jobId: job.id,
        tool: job.tool,
        status: job.status,
        creditsCharged: job.creditsCharged,
        pollUrl: pollUrl(job.id),
        ...(replayed ? { idempotentReplayed: true } : {}),
      };
    },
  };
}

const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** GET /jobs/{jobId}'s path parameter as the argument, checked as the route checks it (not a UUID: NOT_FOUND). */
const jobIdInput = routeArgs(getJobRoute);
const [jobIdParam] = getJobRoute.pathParams;

async function readJob(ctx: McpContext, jobId: string) {
  const job = await getJob(ctx.db, ctx.accountId, parsePathParam(jobIdParam, jobId));
  if (!job) throw notFound("Job");
  return job;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(t);
      resolve();
    });
  });

const waitInput = jobIdInput
  .extend({
    timeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(WAIT_MAX_SECONDS)
      .default(WAIT_DEFAULT_SECONDS)
      .describe(`How long to wait for the job to finish, at most ${WAIT_MAX_SECONDS} seconds.`),
  })
  .strict();

/** GET /jobs' query parameters as typed arguments: the same filters, bounds and defaults. */
const listInput = routeArgs(listJobsRoute);
const creditsInput = routeArgs(getCreditsRoute);
const capabilitiesInput = routeArgs(getCapabilitiesRoute);

const dataTools: McpToolDef[] = [
  {
    name: "get_job",
    description:
      "A job of this account: status (pending, processing, completed, failed), result once completed, error and refund once failed. Free.",
    input: jobIdInput,
    annotations: { ...READ_ONLY, title: "Get a job" },
    async run(ctx, args) {
      const { jobId } = parseValue(jobIdInput, args) as { jobId: string };
      return toJobView(await readJob(ctx, jobId));
    },
  },
  {
    name: "wait_for_job",
    description: `Waits until a job is completed or failed, up to timeoutSeconds (default ${WAIT_DEFAULT_SECONDS}, at most ${WAIT_MAX_SECONDS}), then returns the job as it stands; if it is still pending or processing, call again. At most ${WAITS_PER_KEY} calls per API key wait at once. Free.`,
    input: waitInput,
    annotations: { ...READ_ONLY, title: "Wait for a job" },
    async run(ctx, args) {
      const { jobId, timeoutSeconds } = parseValue(waitInput, args) as {
        jobId: string;
        timeoutSeconds: number;
      };
      const release = acquireWaitSlot(ctx.apiKeyId ?? `account:${ctx.accountId}`);
      try {
        const started = Date.now();
        const end = started + timeoutSeconds * 1000;
        for (;;) {
          const job = await readJob(ctx, jobId);
          const done = job.status === "completed" || job.status === "failed";
          if (done || Date.now() >= end || ctx.signal?.aborted) return toJobView(job);
          const waited = Math.min(timeoutSeconds, Math.round((Date.now() - started) / 1000));
          await ctx.progress?.(waited, timeoutSeconds, `The job is ${job.status}; waited ${waited} s.`);
          await sleep(Math.min(WAIT_POLL_MS, end - Date.now()), ctx.signal);
        }
      } finally {
        release();
      }
    },
  },
  {
    name: "list_jobs",
    description:
      "This account's jobs, newest first, without results; filter by status or tool; page with cursor. Free.",
    input: listInput,
    annotations: { ...READ_ONLY, title: "List jobs" },
    async run(ctx, args) {
      return listJobs(ctx.db, ctx.accountId, parseValue(listInput, args) as ListJobsQuery);
    },
  },
  {
    name: "get_credits",
    description: `Credit balance, credits used in total and the ${RECENT_TRANSACTIONS} most recent transactions. Free.`,
    input: creditsInput,
    annotations: { ...READ_ONLY, title: "Get credits" },
    async run(ctx, args) {
      parseValue(creditsInput, args ?? {});
      return getCreditAccount(ctx.db, ctx.accountId);
    },
  },
  {
    name: "get_bot_stats",
    description:
      "AI and search bot visit statistics of a domain registered on this account: totals, top bots, top pages. Free.",
    input: trackingInputs.botStats,
    annotations: { ...READ_ONLY, title: "Get bot visit statistics" },
    async run(ctx, args) {
      return readBotStats(
        ctx.db,
        ctx.accountId,
        parseValue(trackingInputs.botStats, args) as { domain: string },
      );
    },
  },
  {
    name: "get_citations",
    description:
      "AI-engine citations of a domain registered on this account over the last `days` days. Free.",
    input: trackingInputs.citations,
    annotations: { ...READ_ONLY, title: "Get AI-engine citations" },
    async run(ctx, args) {
      return readCitations(
        ctx.db,
        ctx.accountId,
        parseValue(trackingInputs.citations, args) as { domain: string; days: number; limit: number },
      );
    },
  },
  {
    name: "get_page_funnel",
    description:
      "Per page of a domain registered on this account over the last `days` days: AI crawls (verified and all), first crawl, citations by engine and assistant, first citation and hours from crawl to citation, AI-referred visits, and Search Console impressions/clicks and analytics sessions when connected (null otherwise, with the reason). Per operator: crawls per AI-referred visit. Sortable (crawls, citations, referrals, firstCitation, path) and paged by `cursor`. Free.",
    input: trackingInputs.pages,
    annotations: { ...READ_ONLY, title: "Get the page funnel" },
    async run(ctx, args) {
      return readPageFunnel(
        ctx.db,
        ctx.accountId,
        parseValue(trackingInputs.pages, args) as unknown as PagesRequest,
      );
    },
  },
  {
    name: "list_engines",
    description:
      "The AI engines (ChatGPT, Perplexity, Claude, Gemini): whether each is configured on this server, and its model. ai_citation_check and brand_visibility accept configured engines only. Free.",
    input: enginesInput,
    annotations: { ...READ_ONLY, title: "List AI engines" },
    async run(_ctx, args) {
      parseValue(enginesInput, args ?? {});
      return describeEngines();
    },
  },
  {
    name: "get_capabilities",
    description:
      "Every tool and further capability of this server (AI engines, search and analytics connections, field data, buying credits, email) with `available` and, when not, `reason` from a closed list; the same reasons a refused tool call carries. Free.",
    input: capabilitiesInput,
    annotations: { ...READ_ONLY, title: "Get capabilities" },
    async run(ctx, args) {
      parseValue(capabilitiesInput, args ?? {});
      return listCapabilities(ctx.db, ctx.accountId, readServerEnv());
    },
  },
  {
    name: "get_visibility",
    description: `Citation and mention rates of a domain registered on this account, per AI engine and overall, per day over the last \`days\` days (default ${VISIBILITY_DAYS.default}, at most ${VISIBILITY_DAYS.max}), from completed AI checks. Free.`,
    input: visibilityInput,
    annotations: { ...READ_ONLY, title: "Get AI visibility" },
    async run(ctx, args) {
      return readVisibilityReport(
        ctx.db,
        ctx.accountId,
        parseValue(visibilityInput, args) as { domain: string; days: number },
      );
    },
  },
  {
    name: "get_search_console_queries",
    description:
      "Google Search Console clicks, impressions, CTR and average position of a domain registered on this account, by `dimensions` (comma-separated: query, page, country, device, date; default query) over the last `days` days (default 28, at most 480). Needs Google connected on the dashboard's Connections page; otherwise the error says where to connect. Free.",
    input: connectionInputs.searchConsole,
    annotations: { ...READ_ONLY, openWorldHint: true, title: "Get Search Console queries" },
    async run(ctx, args) {
      return readSearchConsole(
        ctx.db,
        ctx.accountId,
        parseValue(connectionInputs.searchConsole, args) as Parameters<typeof readSearchConsole>[2],
      );
    },
  },
  {
    name: "get_analytics_traffic",
    description:
      "Web analytics of a domain registered on this account from its GA4 property or Plausible site: visits, visitors, pageviews, top sources and pages, visits per day, and the visits referred by AI engines (ChatGPT, Perplexity, Gemini, …) split out. Needs Google (with the domain's GA4 property) or Plausible connected on the dashboard's Connections page. Free.",
    input: connectionInputs.traffic,
    annotations: { ...READ_ONLY, openWorldHint: true, title: "Get analytics traffic" },
    async run(ctx, args) {
      return readTraffic(
        ctx.db,
        ctx.accountId,
        parseValue(connectionInputs.traffic, args) as Parameters<typeof readTraffic>[2],
      );
    },
  },
];

/** Every MCP tool: one per tool endpoint, then the free reads. */
export const MCP_TOOLS: McpToolDef[] = [
  ...TOOL_NAMES.map((name) => billedTool(TOOLS[name])),
  ...dataTools,
  ...monitorTools,
  ...scheduleTools,
];

/** The tools/list entry of a tool: JSON Schema of what it accepts. */
export function listEntry(def: McpToolDef) {
  const schema = toJsonSchema(def.input, "input");
  if (def.extraArgs) {
    const extra = toJsonSchema(def.extraArgs, "input") as { properties?: Record<string, unknown> };
    schema.properties = { ...(schema.properties as Record<string, unknown>), ...extra.properties };
  }
  return {
    name: def.name,
    title: def.annotations.title,
    description: def.description,
    inputSchema: { type: "object" as const, ...schema },
    annotations: def.annotations,
  };
}
