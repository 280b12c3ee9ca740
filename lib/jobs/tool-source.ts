import { redactDbError } from "@/lib/db/errors";
import { ToolError } from "@/lib/errors";
import { FETCH_ERROR_CODES } from "@/lib/fetch";
import { getTool } from "@/lib/tools/catalog";
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

const FETCH_CODES = new Set<string>([...FETCH_ERROR_CODES, "HTTP_ERROR"]);

/** What a customer reads about a failure: a deliberate code, or a generic one that leaks nothing. */
export function describeFailure(err: unknown, jobId: string): { code: string; message: string } {
  if (err instanceof ToolError) return { code: err.code, message: err.message };
  const code = (err as { code?: unknown })?.code;
  if (typeof code === "string" && FETCH_CODES.has(code)) {
    return { code, message: (err as Error).message };
  }
  console.error(`[job ${jobId}] tool failed`, redactDbError(err));
  return {
    code: "TOOL_FAILED",
    message: "The tool failed unexpectedly. The credits for this job were refunded.",
  };
}
