import type { z } from "zod";
import { CwvError, type CwvErrorCode } from "@/lib/cwv/errors";
import type { CoreWebVitalsResult } from "@/lib/cwv/result-schema";
import { runCoreWebVitals } from "@/lib/cwv/run";
import { assertNever, type JobFailureCode } from "@/lib/errors";
import { ToolError, type ToolRunner } from "../types";
import type { coreWebVitalsInput } from "./definition";

type Input = z.output<typeof coreWebVitalsInput>;

/** The job failure code for each engine code: the same words, so the customer reads what the engine found. */
function toolCode(code: CwvErrorCode): JobFailureCode {
  switch (code) {
    case "INVALID_URL":
    case "TARGET_FORBIDDEN":
    case "DNS_ERROR":
    case "PAGE_TIMEOUT":
    case "PAGE_LOAD_FAILED":
    case "BROWSER_UNAVAILABLE":
    case "LIGHTHOUSE_FAILED":
    case "ABORTED":
      return code;
    default:
      return assertNever(code);
  }
}

export const runner: ToolRunner<Input, CoreWebVitalsResult> = {
  async run(input, ctx) {
    try {
      // The job's signal fires on its timeout and when the worker stops; the engine kills Chromium then.
      return await runCoreWebVitals(
        { url: input.url, strategy: input.strategy },
        { signal: ctx.signal, env: ctx.env },
      );
    } catch (err) {
      if (err instanceof CwvError) throw new ToolError(toolCode(err.code), err.message);
      throw err;
    }
  },
};
