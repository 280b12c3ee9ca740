import { redactDbError } from "@/lib/db/errors";
import { type JobFailure, ToolError } from "@/lib/errors";
import { FETCH_ERROR_CODES } from "@/lib/fetch";
import { getTool } from "@/lib/tools/catalog";
import { mayFailWith } from "@/lib/tools/failures";
import { loadToolRunner, toolRunnerFile } from "@/lib/tools/load-runner";
import type { AnyTool, AnyToolRunner } from "@/lib/tools/types";

/** Where the runner finds a job's tool: its definition (client-safe) and its server side. */
export interface ToolSource {
  definition(name: string): AnyTool | undefined;
  /** The server side loaded in this process: its `onCompleted`, and `run` for tools that run here. */
  runner(name: string): Promise<AnyToolRunner | undefined>;
  /**
   * The module a worker thread imports to run the tool (it exports the same `runner`). None: the
   * tool runs in this process, as a definition with `runsIn: "main"` does anyway.
   */
  runnerFile?(name: string): string | undefined;
}

/** The catalogue and each tool's `run.ts`: what production runs. */
export const catalogToolSource: ToolSource = {
  definition: getTool,
  runner: loadToolRunner,
  runnerFile: toolRunnerFile,
};

export interface ToolEntry {
  definition: AnyTool;
  runner: AnyToolRunner;
  /** The file exporting `runner`, for running it in a worker thread; without it, it runs in-process. */
  file?: string;
}

/** A source from a `{ [tool]: { definition, runner, file? } }` map (tests build their own tools this way). */
export function toolSourceFrom(
  map: Record<string, ToolEntry>,
  fallback: ToolSource = catalogToolSource,
): ToolSource {
  const own = (name: string) => (Object.hasOwn(map, name) ? map[name] : undefined);
  return {
    definition: (name) => own(name)?.definition ?? fallback.definition(name),
    runner: async (name) => (own(name) ? own(name)!.runner : fallback.runner(name)),
    runnerFile: (name) => (own(name) ? own(name)!.file : fallback.runnerFile?.(name)),
  };
}

const FETCH_CODES = new Set<JobFailure["code"]>([...FETCH_ERROR_CODES, "HTTP_ERROR"]);
const isFetchCode = (code: unknown): code is JobFailure["code"] =>
  FETCH_CODES.has(code as JobFailure["code"]);

/**
 * What a customer reads about a failure of a job of `tool`: a deliberate code the tool declares
 * (lib/tools/failures.ts), or a generic one that leaks nothing.
 */
export function describeFailure(err: unknown, job: { id: string; tool: string }): JobFailure {
  const failure =
    err instanceof ToolError
      ? { code: err.code, message: err.message }
      : isFetchCode((err as { code?: unknown })?.code)
        ? { code: (err as { code: JobFailure["code"] }).code, message: (err as Error).message }
        : null;
  if (failure && mayFailWith(job.tool, failure.code)) return failure;
  if (failure)
    console.error(`[job ${job.id}] ${job.tool} ended with ${failure.code}, a code it does not declare`);
  else console.error(`[job ${job.id}] tool failed`, redactDbError(err));
  return {
    code: "TOOL_FAILED",
    message: "The tool failed unexpectedly. The credits for this job were refunded.",
  };
}
