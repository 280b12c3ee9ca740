import path from "node:path";
import { isToolName } from "./catalog";
import { TOOL_RUNNERS } from "./runners.generated";
import type { AnyToolRunner } from "./types";

/** Finds the server side of a tool by name; tests pass loaders of their own to the job runner. */
export type RunnerLoader = (tool: string) => Promise<AnyToolRunner | undefined>;

/**
 * The production loader: the tool's `run.ts` from the generated table (lib/tools/runners.generated.ts), imported
 * on first use so that only the job runner pulls in analysis and provider code. A catalogue tool without a
 * `run.ts` has no runner; its jobs fail with TOOL_UNAVAILABLE and are refunded.
 */
export const loadToolRunner: RunnerLoader = async (tool) => {
  if (!Object.hasOwn(TOOL_RUNNERS, tool)) return undefined;
  const mod = (await TOOL_RUNNERS[tool]!()) as { runner?: AnyToolRunner };
  return mod.runner;
};

/**
 * The file a tool worker thread imports to run the tool: the source on disk, which the worker compiles
 * itself (the server's bundle cannot be loaded into a thread). Commands run from the project root.
 */
export function toolRunnerFile(tool: string): string | undefined {
  return isToolName(tool) ? path.join(process.cwd(), "lib", "tools", tool, "run.ts") : undefined;
}
