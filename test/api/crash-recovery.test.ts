import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { findLedgerMismatches } from "@/lib/credits/credits";
import { type DbHandle, migrateDatabase, openDatabase } from "@/lib/db/client";
import { createTestAccount, type TestAccount } from "../accounts";
import { createTestDb, isPostgres } from "../db";

// The spec's "server restart interrupts the job": a real server process is killed with SIGKILL
// while a job is processing; after a restart the job is failed with INTERRUPTED and refunded.
let env: Record<string, string>;
let pgHandle: (DbHandle & { url?: string }) | undefined;
let dir: string | undefined;
let acct: TestAccount;
const children: ChildProcess[] = [];

async function withDb<T>(fn: (h: DbHandle) => Promise<T>): Promise<T> {
  if (pgHandle) return fn(pgHandle);
  const h = await openDatabase({ dataDir: env.PGLITE_DATA_DIR });
  try {
    return await fn(h);
  } finally {
    await h.close();
  }
}

beforeAll(async () => {
  if (isPostgres()) {
    pgHandle = await createTestDb();
    env = { DATABASE_URL: pgHandle.url! };
  } else {
    dir = mkdtempSync(path.join(os.tmpdir(), "crash-"));
    env = { PGLITE_DATA_DIR: path.join(dir, "db"), DATABASE_URL: "" };
    await withDb((h) => migrateDatabase(h));
  }
  acct = await withDb((h) => createTestAccount(h.db, { credits: 100 }));
});
afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  await pgHandle?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function startServer(): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "test/support/serve-app.ts"], {
      env: { ...process.env, ...env, JOB_LEASE_SECONDS: "2", JOB_POLL_MS: "200", JOB_WORKER: "on" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    child.stdout!.on("data", (chunk: Buffer) => {
      const match = chunk.toString().match(/PORT (\d+)/);
      if (match) resolve({ url: `http://127.0.0.1:${match[1]}`, child });
    });
    child.on("exit", (code, signal) => reject(new Error(`server exited (${code ?? signal})`)));
  });
}

async function getJson(url: string) {
  return (await (await fetch(url, { headers: acct.headers })).json()).data;
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`condition not met: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test("SIGKILL while a job is processing: after restart the job is failed, refunded once, ledger consistent", async () => {
  const first = await startServer();
  const created = await fetch(`${first.url}/api/v1/test-sleep`, {
    method: "POST",
    headers: { ...acct.headers, "content-type": "application/json" },
    body: JSON.stringify({ ms: 60_000 }),
  });
  expect(created.status).toBe(202);
  const { jobId } = (await created.json()).data;
  await until(
    () => getJson(`${first.url}/api/v1/jobs/${jobId}`),
    (j) => j.status === "processing",
    10_000,
  );
  expect((await getJson(`${first.url}/api/v1/credits`)).balance).toBe(93);

  const exited = new Promise((r) => first.child.once("exit", r));
  first.child.kill("SIGKILL");
  await exited;

  const second = await startServer();
  const job = await until(
    () => getJson(`${second.url}/api/v1/jobs/${jobId}`),
    (j) => j.status === "failed",
    15_000,
  );
  expect(job).toMatchObject({
    status: "failed",
    creditsRefunded: true,
    creditsCharged: 7,
    error: { code: "INTERRUPTED" },
  });
  const credits = await getJson(`${second.url}/api/v1/credits`);
  expect(credits.balance).toBe(100);
  expect(
    credits.recentTransactions
      .filter((t: { jobId: string }) => t.jobId === jobId)
      .map((t: { type: string }) => t.type),
  ).toEqual(["refund", "spend"]);

  const stopped = new Promise((r) => second.child.once("exit", r));
  second.child.kill("SIGTERM");
  await stopped;
  expect(await withDb((h) => findLedgerMismatches(h.db))).toEqual([]);
}, 60_000);
