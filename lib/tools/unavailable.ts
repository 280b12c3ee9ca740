import { z } from "zod";

/**
 * The placeholder parts of a tool whose analysis is not built on this server yet. Its input, cost and
 * form are real (clients can integrate now); its result schema claims nothing, and the runner fails
 * its jobs with TOOL_UNAVAILABLE and refunds them. To plug the real analysis in: add `run.ts` beside
 * the definition, give the definition its real `result` schema, and drop these fields.
 */
export function notBuiltYet(what: string) {
  return {
    result: z.never(),
    timeoutMs: 10_000,
    unavailable: { reason: `The ${what} analysis is not available on this server yet.` },
  };
}
