// The `test-sleep` tool. Its runner is imported by path into a tool worker thread, so this file holds
// nothing but the tool (no database, no test helpers).
import { z } from "zod";
import { defineTool, ToolError, type ToolRunner } from "@/lib/tools/types";

const input = z.object({ ms: z.number().int().min(0).default(0), fail: z.string().optional() }).strict();
const result = z.object({ sleptMs: z.number(), echo: z.string() });

/** A test-only tool: sleeps `ms`, then succeeds, or fails with the given code. */
export const sleepTool = defineTool({
  name: "test-sleep",
  title: "Test sleep",
  summary: "test tool",
  input,
  example: { ms: 0 },
  result,
  cost: () => 7,
  timeoutMs: 1500,
  form: [],
});

export const runner: ToolRunner<z.output<typeof input>, z.output<typeof result>> = {
  async run(args, ctx) {
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, args.ms);
      ctx.signal.addEventListener("abort", () => {
        clearTimeout(t);
        reject(new Error("aborted"));
      });
    });
    if (args.fail === "tool-error") throw new ToolError("HTTP_ERROR", "The page answered 503.");
    if (args.fail === "crash") throw new Error("secret internals: /srv/app stack");
    if (args.fail === "bad-result") return { sleptMs: "nope" } as never;
    return { sleptMs: args.ms, echo: ctx.jobId };
  },
};

export const SLEEP_TOOL_FILE = import.meta.filename;
