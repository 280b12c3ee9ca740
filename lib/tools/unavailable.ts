import { z } from "zod";
import { type ToolDefinition, ToolError, type ToolName } from "./types";

/**
 * A tool whose analysis is not built on this server yet. It does not pretend: its jobs fail with
 * TOOL_UNAVAILABLE and the runner refunds them. Its input schema and cost are the real ones, so
 * clients can integrate now.
 */
export function unavailableTool<I>(def: {
  name: ToolName;
  summary: string;
  input: z.ZodType<I>;
  cost: (input: I) => number;
}): ToolDefinition<I, never> {
  return {
    ...def,
    result: z.never(),
    timeoutMs: 10_000,
    async run() {
      throw new ToolError(
        "TOOL_UNAVAILABLE",
        `The ${def.name} tool is not available on this server yet. The credits for this job were refunded.`,
      );
    },
  };
}
