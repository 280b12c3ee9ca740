import path from "node:path";
import { isToolName } from "./catalog";
import type { AnyToolRunner } from "./types";

/** Finds the server side of a tool by name; tests pass loaders of their own to the job runner. */
export type RunnerLoader = (tool: string) => Promise<AnyToolRunner | undefined>;

/**
 * The production loader: `lib/tools/<name>/run.ts`, imported on first use so that only the job runner
 * pulls in analysis and provider code. A tool whose `run.ts` does not exist yet has no runner; its
 * jobs fail with TOOL_UNAVAILABLE and are refunded.
 */
export const loadToolRunner: RunnerLoader = async (tool) => {
  if (!isToolName(tool)) return undefined;
  try {
    const mod = (await import(`./${tool}/run.ts`)) as { runner?: AnyToolRunner };
    return mod.runner;
  } catch (err) {
    if (isModuleNotFound(err)) return undefined;
    throw err;
  }
};

/**
 * The file a tool worker thread imports to run the tool: the source on disk, which the worker compiles
 * itself (the server's bundle cannot be loaded into a thread). Commands run from the project root.
 */
export function toolRunnerFile(tool: string): string | undefined {
  return isToolName(tool) ? path.join(process.cwd(), "lib", "tools", tool, "run.ts") : undefined;
}

function isModuleNotFound(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  const message = err instanceof Error ? err.message : "";
  return (
    code === "ERR_MODULE_NOT_FOUND" ||
    code === "MODULE_NOT_FOUND" ||
    /Cannot find module|Failed to load url|Failed to resolve import|Unknown variable dynamic import/i.test(
      message,
    )
  );
}
