import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { notFound } from "@/lib/api/errors";
import { parseValue, requireUuid } from "@/lib/api/parse";
import { getCreditAccount } from "@/lib/credits/credits";
import type { Db } from "@/lib/db/client";
import { JOB_STATUSES } from "@/lib/db/schema";
import { createJob } from "@/lib/jobs/create";
import { listJobs } from "@/lib/jobs/list";
import { getJob } from "@/lib/jobs/queries";
import { pollUrl, toJobView } from "@/lib/jobs/view";
import { toJsonSchema } from "@/lib/openapi/json-schema";
import { TOOLS } from "@/lib/tools/registry";
import { type AnyTool, TOOL_NAMES } from "@/lib/tools/types";
import { readBotStats, readCitations, trackingInputs } from "./tracking";

/** What a tool handler may use: the authenticated account and the request's database. */
export interface McpContext {
  db: Db;
  accountId: string;
  signal?: AbortSignal;
}

export interface McpToolDef {
  name: string;
  description: string;
  /** Validates the arguments (the same zod schema the REST route uses, where there is one). */
  input: z.ZodType;
  annotations: ToolAnnotations;
  run(ctx: McpContext, args: unknown): Promise<unknown>;
}

/** MCP tool names are the endpoint names with underscores: llms-txt → llms_txt. */
export const mcpToolName = (endpoint: string) => endpoint.replaceAll("-", "_");

export const WAIT_MAX_SECONDS = 60;
export const WAIT_DEFAULT_SECONDS = 30;
export const WAIT_POLL_MS = 500;

function costText(tool: AnyTool): string {
  if (tool.name === "ai-citation-check")
    return "Costs 100 credits per engine (400 for all four, the default).";
  return `Costs ${tool.cost(undefined as never)} credits.`;
}

function available(tool: AnyTool): boolean {
  return !(tool.result instanceof z.ZodNever);
}

function billedTool(tool: AnyTool): McpToolDef {
  const unavailable = available(tool)
    ? ""
    : " It is not available on this server yet: its jobs fail with TOOL_UNAVAILABLE and the credits are refunded.";
  return {
    name: mcpToolName(tool.name),
    description: `${tool.summary} ${costText(tool)} Starts an asynchronous job (charged now, refunded if it fails) and returns its jobId; call wait_for_job or get_job for the result.${unavailable}`,
    input: tool.input,
    annotations: {
      title: tool.summary,
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      // Every tool job fetches customer pages or asks outside providers.
      openWorldHint: true,
    },
    async run(ctx, args) {
      const input = parseValue(tool.input, args);
      const { job } = await createJob(ctx.db, { accountId: ctx.accountId, tool, input });
      return {
        jobId: job.id,
        tool: job.tool,
        status: job.status,
        creditsCharged: job.creditsCharged,
        pollUrl: pollUrl(job.id),
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

const jobIdInput = z.object({ jobId: z.string().describe("The jobId a tool returned.") }).strict();

async function readJob(ctx: McpContext, jobId: string) {
  const job = await getJob(ctx.db, ctx.accountId, requireUuid(jobId, "Job"));
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

const waitInput = z
  .object({
    jobId: z.string().describe("The jobId a tool returned."),
    timeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(WAIT_MAX_SECONDS)
      .default(WAIT_DEFAULT_SECONDS)
      .describe(`How long to wait for the job to finish, at most ${WAIT_MAX_SECONDS} seconds.`),
  })
  .strict();

const listInput = z
  .object({
    status: z.enum(JOB_STATUSES).optional(),
    tool: z.enum(TOOL_NAMES).optional(),
    limit: z.number().int().min(1).max(100).default(20),
    cursor: z.string().max(200).optional().describe("nextCursor of the previous page."),
  })
  .strict();

const dataTools: McpToolDef[] = [
  {
    name: "get_job",
    description:
      "A job of this account: status (pending, processing, completed, failed), result once completed, error and refund once failed. Free.",
    input: jobIdInput,
    annotations: { ...READ_ONLY, title: "Get a job" },
    async run(ctx, args) {
      const { jobId } = parseValue(jobIdInput, args);
      return toJobView(await readJob(ctx, jobId));
    },
  },
  {
    name: "wait_for_job",
    description: `Waits until a job is completed or failed, up to timeoutSeconds (default ${WAIT_DEFAULT_SECONDS}, at most ${WAIT_MAX_SECONDS}), then returns the job as it stands; if it is still pending or processing, call again. Free.`,
    input: waitInput,
    annotations: { ...READ_ONLY, title: "Wait for a job" },
    async run(ctx, args) {
      const { jobId, timeoutSeconds } = parseValue(waitInput, args);
      const end = Date.now() + timeoutSeconds * 1000;
      for (;;) {
        const job = await readJob(ctx, jobId);
        const done = job.status === "completed" || job.status === "failed";
        if (done || Date.now() >= end || ctx.signal?.aborted) return toJobView(job);
        await sleep(Math.min(WAIT_POLL_MS, end - Date.now()), ctx.signal);
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
      return listJobs(ctx.db, ctx.accountId, parseValue(listInput, args));
    },
  },
  {
    name: "get_credits",
    description: "Credit balance, credits used in total and the 20 most recent transactions. Free.",
    input: z.object({}).strict(),
    annotations: { ...READ_ONLY, title: "Get credits" },
    async run(ctx, args) {
      parseValue(z.object({}).strict(), args ?? {});
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
      return readBotStats(ctx.db, ctx.accountId, parseValue(trackingInputs.botStats, args));
    },
  },
  {
    name: "get_citations",
    description:
      "AI-engine citations of a domain registered on this account over the last `days` (default 30, max 90). Free.",
    input: trackingInputs.citations,
    annotations: { ...READ_ONLY, title: "Get AI-engine citations" },
    async run(ctx, args) {
      return readCitations(ctx.db, ctx.accountId, parseValue(trackingInputs.citations, args));
    },
  },
];

/** Every MCP tool: one per tool endpoint, then the free reads. */
export const MCP_TOOLS: McpToolDef[] = [...TOOL_NAMES.map((name) => billedTool(TOOLS[name])), ...dataTools];

/** The tools/list entry of a tool: JSON Schema of what it accepts. */
export function listEntry(def: McpToolDef) {
  return {
    name: def.name,
    title: def.annotations.title,
    description: def.description,
    inputSchema: { type: "object" as const, ...toJsonSchema(def.input, "input") },
    annotations: def.annotations,
  };
}
