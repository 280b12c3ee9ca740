import type { z } from "zod";
import type { Db, Tx } from "@/lib/db/client";
import type { Job } from "@/lib/db/schema";
import type { UnavailableReason } from "@/lib/errors/unavailable";
import type { GuardedFetch } from "@/lib/fetch/types";
import type { Env } from "@/lib/providers/env";

export { ToolError } from "@/lib/errors";

/** The server's environment as a plain record; the catalogue never reads `process.env` itself. */
export type { Env };

export type Availability =
  | { ok: true }
  /**
   * `reason` is the 400's message; `code` its `details.reason` from the closed list (lib/errors/unavailable.ts),
   * derived from the tool's requirements when the check leaves it out (lib/tools/verdict.ts); `details` joins
   * the 400's details (e.g. the engines configured here and the variables to set).
   */
  | { ok: false; reason: string; code?: UnavailableReason; details?: Record<string, unknown> };

/** A fact the server must be configured with for (part of) a tool to run. */
interface EnvRequirement {
  env: string;
  /** What it enables, for people: "ChatGPT", "the backlink provider". */
  label: string;
  /**
   * Set when `env` names a fact the server checks itself (an installed browser, lib/tools/server-env.ts)
   * rather than a variable an operator sets; the label then says what to install or configure.
   */
  detected?: true;
}

/** A launcher form field in the dashboard; the API reads the input schema instead. */
export type FieldSpec =
  | {
      name: string;
      kind: "url" | "text";
      label: string;
      hint?: string;
      required: boolean;
      placeholder?: string;
    }
  | { name: string; kind: "textarea"; label: string; hint?: string; required: boolean; placeholder?: string }
  | { name: string; kind: "list"; label: string; hint: string; required: boolean; placeholder?: string }
  | { name: string; kind: "select"; label: string; options: readonly string[]; default: string }
  | { name: string; kind: "checkboxes"; label: string; options: readonly string[] }
  | { name: string; kind: "checkbox"; label: string };

/**
 * Everything known about a tool without running it. Client-safe: a definition imports zod and other
 * client-safe modules only (no database, no Node built-ins, no analysis or fetch code), so routes,
 * MCP, OpenAPI, the docs page and client components all read the same object.
 */
export interface ToolDefinition<I = unknown, R = unknown> {
  /** Also the endpoint's path under /api/v1 and (with underscores) the MCP tool's name. */
  name: string;
  /** Shown to people: "URL audit". */
  title: string;
  /** One sentence for the OpenAPI document, the MCP tool list and the dashboard. */
  summary: string;
  /** Validates the POST body (zod 4). */
  input: z.ZodType<I>;
  /** A valid request body, for the OpenAPI document, Postman and the docs. */
  example: z.input<z.ZodType<I>>;
  /** The shape of `data.result` of a completed job; `z.never()` while the tool is not built here. */
  result: z.ZodType<R>;
  /** Credits charged at creation, for the validated input. */
  cost(input: I): number;
  /** The price in words when it depends on the input ("100 credits per engine …"); else `<cost> credits`. */
  pricing?: string;
  /**
   * A job running longer than this fails with TIMEOUT and is refunded: its signal is aborted, and a
   * worker thread still busy shortly after is terminated.
   */
  timeoutMs: number;
  /**
   * Where `run` executes. By default (`"worker"`) in a worker thread of the job runner, apart from the
   * event loop that serves requests, under a heap limit (TOOL_WORKER_MEMORY_MB; past it the job fails
   * with MEMORY_LIMIT) and the hard time limit; its input, result and errors cross as plain data (a
   * ToolError keeps its code and message). `"main"` runs it in the server's process with `ctx.db`, for
   * a tool that reads the database while it runs: it must then never block the event loop for long
   * (no unbounded parsing or analysis), and its time limit only aborts its signal.
   */
  runsIn?: "worker" | "main";
  /** Set while the analysis is not built on this server: jobs fail with TOOL_UNAVAILABLE and are refunded. */
  unavailable?: { reason: string };
  /** Environment variables the tool reads (documentation, and the dashboard's configuration hints). */
  requires?: readonly EnvRequirement[];
  /** Checked before any charge, with the server's environment; a refusal is a 400 naming what to set. */
  availability?(input: I, env: Env): Availability;
  /**
   * The 202 answer's shape: the spec gives POST /audits `{ jobId, tool, status, creditsCharged, pollUrl }`
   * and the other tools `{ jobId, status, pollUrl }`.
   */
  creationShape?: "with-charge";
  /** The dashboard launcher's form. */
  form: readonly FieldSpec[];
}

/** What a running tool may use. Everything outside the process goes through `fetch`. */
export interface ToolContext {
  jobId: string;
  accountId: string;
  /** Aborted when the job's timeout passes or the worker shuts down. */
  signal: AbortSignal;
  /** The guarded outbound fetcher (SSRF rules, timeouts, size cap, manual redirects). */
  fetch: GuardedFetch;
  /** The server's environment (provider keys and base URLs). */
  env: Env;
  /** The database, only for a tool defined with `runsIn: "main"` (a worker thread has none). */
  db?: Db;
}

/**
 * The server side of a tool: `lib/tools/<name>/run.ts` exports `runner: ToolRunner<I, R>`, loaded by
 * the job runner: `run` in a worker thread (see `runsIn`), `onCompleted` in the runner's process.
 */
export interface ToolRunner<I = unknown, R = unknown> {
  /** The analysis. Throw ToolError for a deliberate failure (the job fails with its code and is refunded). */
  run(input: I, ctx: ToolContext): Promise<R>;
  /**
   * Called inside the transaction that marks the job completed, with the checked result: a tool records
   * facts of its own there (visibility observations, a partial refund of failed engines through
   * lib/credits with `tx`), so they exist exactly when the job is completed. Throwing fails the job
   * (and refunds it) instead.
   */
  onCompleted?(tx: Tx, event: CompletedEvent<I, R>): Promise<void>;
}

interface CompletedEvent<I = unknown, R = unknown> {
  job: Job;
  input: I;
  /** The result as stored: what the result schema kept of the tool's output. */
  result: R;
  /**
   * What `run` returned, before the result schema kept only the customer's fields: a tool may return
   * operator-only facts beside its result (the AI engines' token usage) and store them here.
   */
  output: unknown;
}

/** A tool of any input and result type, as the catalogue, routes and runner hold them. */
// biome-ignore lint/suspicious/noExplicitAny: the catalogue holds tools of different input and result types
export type AnyTool = ToolDefinition<any, any>;
// biome-ignore lint/suspicious/noExplicitAny: runners of different input and result types
export type AnyToolRunner = ToolRunner<any, any>;

/** Declares a definition with its literal name kept (so the catalogue's keys are typed). */
export function defineTool<const N extends string, I, R>(
  def: ToolDefinition<I, R> & { name: N },
): ToolDefinition<I, R> & { name: N } {
  return def;
}

/** Whether the tool can run for `input` on a server with `env`: not built, or missing configuration. */
export function checkAvailability(tool: AnyTool, input: unknown, env: Env): Availability {
  return tool.availability?.(input, env) ?? { ok: true };
}
