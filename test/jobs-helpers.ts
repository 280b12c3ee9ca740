import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { creditLedger, jobs } from "@/lib/db/schema";
import { type ToolSource, toolSourceFrom } from "@/lib/jobs/runner";
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

export const sleepRunner: ToolRunner<z.output<typeof input>, z.output<typeof result>> = {
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

/** The catalogue's tools plus the test tools: what test runners run. */
export const testTools: ToolSource = toolSourceFrom({
  "test-sleep": { definition: sleepTool, runner: sleepRunner },
});
export async function jobRow(db: Db, id: string) {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return row;
}

export async function ledgerFor(db: Db, jobId: string) {
  return db.select().from(creditLedger).where(eq(creditLedger.jobId, jobId)).orderBy(creditLedger.id);
}

export async function waitFor<T>(
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}
