import type { z } from "zod";
import type { GuardedFetch } from "@/lib/fetch/types";

/** Names of the credit-billed tools; each is also its endpoint's path under /api/v1. */
export const TOOL_NAMES = [
  "audits",
  "core-web-vitals",
  "keyword-research",
  "brand-visibility",
  "faq-generator",
  "llms-txt",
  "ai-citation-check",
  "seo-aeo-geo-audit",
  "backlinks-overview",
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** What a running tool may use. Everything outside the process goes through `fetch`. */
export interface ToolContext {
  jobId: string;
  accountId: string;
  /** Aborted when the job's timeout passes or the worker shuts down. */
  signal: AbortSignal;
  /** The guarded outbound fetcher (SSRF rules, timeouts, size cap, manual redirects). */
  fetch: GuardedFetch;
}

/**
 * A failure a tool reports on purpose. The job fails with `code` and `message`
 * (both shown to the customer) and its credits are refunded.
 */
export class ToolError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ToolError";
  }
}

export type Availability = { ok: true } | { ok: false; reason: string };

export interface ToolDefinition<I = unknown, R = unknown> {
  name: ToolName;
  /** One sentence for the OpenAPI document and the MCP tool list. */
  summary: string;
  /** Validates the POST body (zod 4). Bounds follow DESIGN.md. */
  input: z.ZodType<I>;
  /** The shape of `data.result` of a completed job. */
  result: z.ZodType<R>;
  /** Credits charged at creation. */
  cost(input: I): number;
  /** A job running longer than this fails with TIMEOUT and is refunded. */
  timeoutMs: number;
  /** Checked before any charge; a tool that cannot run here says why (400 at creation). */
  availability?(input: I): Availability;
  run(input: I, ctx: ToolContext): Promise<R>;
}

/** A tool of any input and result type, as the registry, routes and runner hold them. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds tools of different input and result types
export type AnyTool = ToolDefinition<any, any>;
