import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { creditLedger, jobs } from "@/lib/db/schema";
import { type ToolSource, toolSourceFrom } from "@/lib/jobs/runner";
import { SLEEP_TOOL_FILE, runner as sleepRunner, sleepTool } from "./support/tools/sleep";
import { STRESS_TOOL_FILE, runner as stressRunner, stressTool } from "./support/tools/stress";

export { SLEEP_TOOL_FILE, STRESS_TOOL_FILE, sleepRunner, sleepTool, stressRunner, stressTool };

/** The catalogue's tools plus the test tools, each run in a tool worker thread: what test runners run. */
export const testTools: ToolSource = toolSourceFrom({
  "test-sleep": { definition: sleepTool, runner: sleepRunner, file: SLEEP_TOOL_FILE },
  "test-stress": { definition: stressTool, runner: stressRunner, file: STRESS_TOOL_FILE },
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
