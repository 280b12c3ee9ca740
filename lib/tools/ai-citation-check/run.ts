import { type AiCitationCheckResult, runCitationCheck } from "@/lib/ai-visibility";
import { engineDeadline, readUsage, settleCheck } from "../shared/settle-check";
import type { ToolRunner } from "../types";
import { type AiCitationCheckInput, aiCitationCheck } from "./definition";

// `run` returns each engine's token usage beside its entry; the result schema keeps only the customer's fields,
// and onCompleted stores the usage on the job for operators.
export const runner: ToolRunner<AiCitationCheckInput, AiCitationCheckResult> = {
  run: (input, ctx) =>
    runCitationCheck(input, {
      signal: ctx.signal,
      fetch: ctx.fetch,
      env: ctx.env,
      deadline: engineDeadline(aiCitationCheck.timeoutMs),
    }),
  onCompleted: (tx, { job, input, result, output }) =>
    settleCheck(tx, { job, input, result, usage: readUsage(output) }),
};
