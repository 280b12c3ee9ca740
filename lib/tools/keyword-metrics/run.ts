import { type KeywordMetricsInput, type KeywordMetricsResult, runKeywordMetrics } from "@/lib/keywords";
import { toKnownToolError } from "../map-tool-error";
import type { ToolRunner } from "../types";

export const runner: ToolRunner<KeywordMetricsInput, KeywordMetricsResult> = {
  async run(input, ctx) {
    return runKeywordMetrics(input, { signal: ctx.signal, env: ctx.env }).catch((err: unknown) => {
      if (ctx.signal.aborted) throw err;
      throw toKnownToolError(err);
    });
  },
};
