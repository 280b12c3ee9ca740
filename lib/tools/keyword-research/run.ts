import { type KeywordResearchInput, type KeywordResearchResult, runKeywordResearch } from "@/lib/keywords";
import { toKnownToolError } from "../map-tool-error";
import type { ToolRunner } from "../types";

export const runner: ToolRunner<KeywordResearchInput, KeywordResearchResult> = {
  async run(input, ctx) {
    return runKeywordResearch(input, { signal: ctx.signal, fetch: ctx.fetch, env: ctx.env }).catch(
      (err: unknown) => {
        if (ctx.signal.aborted) throw err;
        throw toKnownToolError(err);
      },
    );
  },
};
