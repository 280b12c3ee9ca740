import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, expect } from "vitest";
import { createTestAccount } from "../accounts";
import { isPostgres } from "../db";
import { dbTest } from "../support/fixtures";

// Two server processes must share one window. PGlite serves one process per data folder,
// so this runs on Postgres (CI runs the suite on both).
const children: ChildProcess[] = [];

function startServer(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "test/support/serve-credits.ts"], {
      env: { ...process.env, DATABASE_URL: url, DATABASE_POOL_SIZE: "2" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    child.stdout!.on("data", (chunk: Buffer) => {
      const match = chunk.toString().match(/PORT (\d+)/);
      if (match) resolve(`http://127.0.0.1:${match[1]}`);
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
}

afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
});

dbTest.skipIf(!isPostgres())(
  "two server processes share one rate-limit window",
  async ({ handle }) => {
    const [a, b] = await Promise.all([startServer(handle.url!), startServer(handle.url!)]);
    const acct = await createTestAccount(handle.db, { rateLimitPerMinute: 60 });
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const res = await fetch(`${i % 2 ? b : a}/api/v1/credits`, { headers: acct.headers });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
  },
  60_000,
);
