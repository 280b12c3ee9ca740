import { type ChildProcess, spawn } from "node:child_process";
import { sql } from "drizzle-orm";
import { afterAll, expect } from "vitest";
import { rotateKeyPair } from "@/lib/keys/keys";
import { createTestAccount } from "../accounts";
import { isPostgres } from "../db";
import { dbTest } from "../support/fixtures";

// Each server process caches key rows; a rotation or revocation made anywhere must reach every one of them
// within 5 s (NOTIFY api_keys_changed plus the version counter). Two processes on one database need
// Postgres: PGlite serves one process per data folder (CI runs the suite on both).
const children: ChildProcess[] = [];

function startServer(url: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "test/support/serve-lean.ts"], {
      env: { ...process.env, DATABASE_URL: url, DATABASE_POOL_SIZE: "2", JOB_WORKER: "off", ...env },
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

async function status(base: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(`${base}/api/v1/credits`, { headers });
  await res.arrayBuffer();
  return res.status;
}

/** Milliseconds until `base` refuses `headers` (401), polling every 50 ms; Infinity after 8 s. */
async function timeToRefusal(base: string, headers: Record<string, string>, since: number): Promise<number> {
  while (performance.now() - since < 8000) {
    if ((await status(base, headers)) === 401) return performance.now() - since;
    await new Promise((r) => setTimeout(r, 50));
  }
  return Number.POSITIVE_INFINITY;
}

afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
});

dbTest.skipIf(!isPostgres())(
  "a key rotated by another process is refused by two caching servers within 5 s, the new key accepted",
  async ({ handle }) => {
    const [a, b] = await Promise.all([startServer(handle.url!), startServer(handle.url!)]);
    const acct = await createTestAccount(handle.db, { rateLimitPerMinute: 100_000 });
    // Both servers have the key cached (a few requests each).
    for (let i = 0; i < 3; i++) {
      expect(await status(a, acct.headers)).toBe(200);
      expect(await status(b, acct.headers)).toBe(200);
    }
    const t0 = performance.now();
    const fresh = await rotateKeyPair(handle.db, acct.accountId);
    const [ta, tb] = await Promise.all([
      timeToRefusal(a, acct.headers, t0),
      timeToRefusal(b, acct.headers, t0),
    ]);
    expect(ta).toBeLessThanOrEqual(5000);
    expect(tb).toBeLessThanOrEqual(5000);
    const next = { "x-api-key": fresh.keyId, "x-api-secret": fresh.secret };
    expect(await status(a, next)).toBe(200);
    expect(await status(b, next)).toBe(200);
  },
  60_000,
);

dbTest.skipIf(!isPostgres())(
  "a revocation written straight to the table (no notification heard) still reaches the cache within 5 s",
  async ({ handle }) => {
    // KEY_CACHE_LISTEN=off: this server relies on the version counter alone, as after a lost notification.
    const a = await startServer(handle.url!, { KEY_CACHE_LISTEN: "off" });
    const acct = await createTestAccount(handle.db, { rateLimitPerMinute: 100_000 });
    for (let i = 0; i < 3; i++) expect(await status(a, acct.headers)).toBe(200);
    const t0 = performance.now();
    await handle.db.execute(sql`update api_keys set revoked_at = now() where key_id = ${acct.key}`);
    expect(await timeToRefusal(a, acct.headers, t0)).toBeLessThanOrEqual(5000);
  },
  60_000,
);
