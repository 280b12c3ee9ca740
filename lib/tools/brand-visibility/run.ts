import { type BrandVisibilityResult, runBrandVisibility } from "@/lib/ai-visibility";
import { engineDeadline, readUsage, settleCheck } from "../shared/settle-check";
import type { ToolRunner } from "../types";
import { type BrandVisibilityInput, brandVisibility } from "./definition";

// `run` returns the engine's token usage beside the entry; the result schema keeps only the customer's fields,
// and onCompleted stores the usage on the job for operators. A failed engine fails the job (ENGINES_FAILED).
export const runner: ToolRunner<BrandVisibilityInput, BrandVisibilityResult> = {
  run: (input, ctx) =>
    runBrandVisibility(input, {
      signal: ctx.signal,
      fetch: ctx.fetch,
      env: ctx.env,
      deadline: engineDeadline(brandVisibility.timeoutMs),
    }),
  onCompleted: (tx, { job, input, result, output }) =>
    settleCheck(tx, { job, input, result, usage: readUsage(output) }),
};
