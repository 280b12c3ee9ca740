import { afterAll, expect, test } from "vitest";
import { ToolWorkerPool } from "@/lib/jobs/tool-pool";
import { SLEEP_TOOL_FILE } from "../jobs-helpers";

// A warm tool thread is kept for the next job, then ends once it has been idle for `idleMs`, giving its heap
// back; the next job starts a fresh one.
const pool = new ToolWorkerPool({ memoryMb: 96, graceMs: 500, idleMs: 1500 });
pool.reserve(1);
afterAll(() => pool.close());

const run = async (jobId: string) => {
  const task = pool.run(
    { file: SLEEP_TOOL_FILE, input: { ms: 0 }, jobId, accountId: "a", env: {} },
    { timeoutMs: 5000, signal: new AbortController().signal },
  );
  const result = await task.outcome;
  await task.released;
  return result;
};

test("an idle tool thread is reused while warm and ends after the idle time", async () => {
  expect(await run("j1")).toEqual({ sleptMs: 0, echo: "j1" });
  expect(pool.idleCount).toBe(1);
  expect(await run("j2")).toEqual({ sleptMs: 0, echo: "j2" });
  expect(pool.stats.spawned).toBe(1);
  const deadline = Date.now() + 10_000;
  while (pool.idleCount > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(pool.idleCount).toBe(0);
  expect(await run("j3")).toEqual({ sleptMs: 0, echo: "j3" });
  expect(pool.stats.spawned).toBe(2);
}, 60_000);
