import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { findLedgerMismatches } from "@/lib/credits/credits";
import { type DbHandle, migrateDatabase, openDatabase } from "@/lib/db/client";
import { creditLedger, jobs } from "@/lib/db/schema";
import { createJob } from "@/lib/jobs/create";
import { getTool } from "@/lib/tools/catalog";
import { balanceOf, createTestAccount, type TestAccount } from "../accounts";
import { createTestDb, isPostgres } from "../db";

// A graceful stop (SIGTERM): the serving process and the worker fail their running jobs as INTERRUPTED and
// refund them before they exit, within the bound, without waiting for a lease to run out (the lease is 10
// minutes here, so only the stop itself can have recorded it). Real child processes, a real database.
const LEASE_SECONDS = "600";
const BOUND_MS = 10_000;

let env: Record<string, string>;
let pgHandle: (DbHandle & { url?: string }) | undefined;
let dir: string | undefined;
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
    dir = mkdtempSync(path.join(os.tmpdir(), "graceful-"));
    env = { PGLITE_DATA_DIR: path.join(dir, "db"), DATABASE_URL: "" };
    await withDb((h) => migrateDatabase(h));
  }
});
afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  await pgHandle?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function spawnChild(script: string, extra: Record<string, string>, ready: RegExp) {
  return new Promise<{ child: ChildProcess; match: RegExpMatchArray; output: () => string }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", script], {
        env: { ...process.env, ...env, JOB_LEASE_SECONDS: LEASE_SECONDS, JOB_POLL_MS: "200", ...extra },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      let out = "";
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        const match = out.match(ready);
        if (match) resolve({ child, match, output: () => out });
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
      child.on("exit", (code, signal) => reject(new Error(`exited early (${code ?? signal}): ${out}`)));
    },
  );
}

/** SIGTERM, then how long the process took to exit and its exit code. */
async function terminate(child: ChildProcess): Promise<{ ms: number; code: number | null }> {
  const started = Date.now();
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  child.kill("SIGTERM");
  const code = await exited;
  return { ms: Date.now() - started, code };
}

async function expectInterruptedAndRefunded(jobId: string, acct: TestAccount, balance: number) {
  await withDb(async (h) => {
    const [job] = await h.db.select().from(jobs).where(eq(jobs.id, jobId));
    expect(job).toMatchObject({ status: "failed", creditsRefunded: true });
    expect(job!.error).toMatchObject({ code: "INTERRUPTED" });
    // The stop's own words, not the lease recovery's.
    expect(job!.error!.message).toMatch(/stopped while the job was running/);
    const ledger = await h.db.select().from(creditLedger).where(eq(creditLedger.jobId, jobId));
    expect(ledger.map((r) => r.type).sort()).toEqual(["refund", "spend"]);
    expect(await balanceOf(h.db, acct.accountId)).toBe(balance);
    expect(await findLedgerMismatches(h.db)).toEqual([]);
  });
}

test("SIGTERM to the serving process: the running job is INTERRUPTED and refunded before it exits, within the bound", async () => {
  const acct = await withDb((h) => createTestAccount(h.db, { credits: 100 }));
  const { child, match } = await spawnChild("test/support/serve-app.ts", { JOB_WORKER: "on" }, /PORT (\d+)/);
  const url = `http://127.0.0.1:${match[1]}`;
  const created = await fetch(`${url}/api/v1/test-sleep`, {
    method: "POST",
    headers: { ...acct.headers, "content-type": "application/json" },
    body: JSON.stringify({ ms: 60_000 }),
  });
  expect(created.status).toBe(202);
  const { jobId } = (await created.json()).data;
  for (let i = 0; ; i++) {
    const job = (await (await fetch(`${url}/api/v1/jobs/${jobId}`, { headers: acct.headers })).json()).data;
    if (job.status === "processing") break;
    if (i > 200) throw new Error(`job never processing: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const { ms, code } = await terminate(child);
  expect(code).toBe(0);
  expect(ms).toBeLessThan(BOUND_MS);
  await expectInterruptedAndRefunded(jobId, acct, 100);
}, 60_000);

test("SIGTERM to `npm run worker`: its running job is INTERRUPTED and refunded before it exits, within the bound", async () => {
  // A page that never answers keeps the audit's fetch (and so the job) running.
  const seen: string[] = [];
  const site = http.createServer((req) => {
    seen.push(req.url ?? "");
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  const pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  try {
    const { acct, jobId } = await withDb(async (h) => {
      const acct = await createTestAccount(h.db, { credits: 100 });
      const { job } = await createJob(h.db, {
        accountId: acct.accountId,
        tool: getTool("audits")!,
        input: { url: pageUrl },
      });
      return { acct, jobId: job.id };
    });
    const { child } = await spawnChild(
      "scripts/worker.ts",
      { ALLOW_PRIVATE_TARGETS: "true" },
      /"worker":"w_/,
    );
    for (let i = 0; seen.length === 0; i++) {
      if (i > 400) throw new Error("the worker never fetched the page");
      await new Promise((r) => setTimeout(r, 25));
    }
    const { ms, code } = await terminate(child);
    expect(code).toBe(0);
    expect(ms).toBeLessThan(BOUND_MS);
    await expectInterruptedAndRefunded(jobId, acct, 100);
  } finally {
    site.closeAllConnections();
    site.close();
  }
}, 60_000);
