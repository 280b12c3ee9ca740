// The `test-stress` tool: the misbehaviour a worker thread must contain. Imported by path into a tool
// worker thread (see test/jobs-helpers.ts); bench/isolation.ts uses its `spin` mode as CPU-bound work.
import { isMainThread } from "node:worker_threads";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { defineTool, type ToolRunner } from "@/lib/tools/types";

const input = z
  .object({
    mode: z.enum(["spin", "forever", "hog", "uncaught", "exit", "db"]),
    ms: z.number().int().min(0).default(0),
  })
  .strict();
const result = z.object({ iterations: z.number(), mainThread: z.boolean(), dbAnswered: z.boolean() });

export const stressTool = defineTool({
  name: "test-stress",
  title: "Test stress",
  summary: "test tool",
  input,
  example: { mode: "spin", ms: 10 },
  result,
  cost: () => 5,
  timeoutMs: 1500,
  form: [],
});

export const runner: ToolRunner<z.output<typeof input>, z.output<typeof result>> = {
  async run(args, ctx) {
    switch (args.mode) {
      case "spin": {
        // CPU-bound without a single await, like a regex or parser chewing a hostile page.
        const end = Date.now() + args.ms;
        let iterations = 0;
        while (Date.now() < end) iterations++;
        return { iterations, mainThread: isMainThread, dbAnswered: false };
      }
      case "forever":
        for (;;) {
          // Never yields: the abort signal can never be seen.
        }
      case "hog": {
        const kept: number[][] = [];
        for (;;) kept.push(new Array(1_000_000).fill(kept.length));
      }
      case "uncaught":
        // Thrown outside the tool's promise chain: it takes the whole thread down.
        setTimeout(() => {
          throw new Error("secret internals: /srv/app stack");
        }, 0);
        return new Promise(() => {});
      case "exit":
        // In a worker thread this ends the thread, not the server.
        return process.exit(3);
      case "db": {
        const answered = ctx.db ? (await ctx.db.execute(sql`select 1 as one`)) !== undefined : false;
        return { iterations: 0, mainThread: isMainThread, dbAnswered: answered };
      }
    }
  },
};

export const STRESS_TOOL_FILE = import.meta.filename;
