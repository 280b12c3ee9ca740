import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { type DbHandle, migrateDatabase, openDatabase } from "@/lib/db/client";
import { webhookDeliveries } from "@/lib/db/schema";
import { createEndpoint } from "@/lib/webhooks";
import { type Receiver, startReceiver } from "@/test/fakes/webhook-receiver";
import { createTestAccount, type TestAccount } from "../accounts";
import { createTestDb, isPostgres } from "../db";

// The outbox survives the process: a server is killed with SIGKILL while a job's event is being delivered
// (the receiver holds the request open); after a restart the event is delivered, signed, with the same id.
let env: Record<string, string>;
let pgHandle: (DbHandle & { url?: string }) | undefined;
let dir: string | undefined;
let acct: TestAccount;
let receiver: Receiver;
let endpointId: string;
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
    dir = mkdtempSync(path.join(os.tmpdir(), "webhook-crash-"));
    env = { PGLITE_DATA_DIR: path.join(dir, "db"), DATABASE_URL: "" };
    await withDb((h) => migrateDatabase(h));
  }
  receiver = await startReceiver();
  vi.stubEnv("ALLOW_PRIVATE_TARGETS", "loopback");
  await withDb(async (h) => {
    acct = await createTestAccount(h.db, { credits: 100 });
    const created = await createEndpoint(h.db, acct.accountId, {
      url: receiver.url,
      events: ["job.completed"],
    });
    endpointId = created.view.id;
    receiver.secrets = [created.secret];
  });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  for (const c of children) c.kill("SIGKILL");
  await receiver?.close();
  await pgHandle?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function startServer(): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "test/support/serve-app.ts"], {
      env: {
        ...process.env,
        ...env,
        JOB_LEASE_SECONDS: "2",
        JOB_POLL_MS: "200",
        JOB_WORKER: "on",
        ALLOW_PRIVATE_TARGETS: "loopback",
      },
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

async function until(ok: () => boolean, ms: number) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error("condition not met");
    await new Promise((r) => setTimeout(r, 100));
  }
}

test("SIGKILL between the event and its delivery: after restart the event is still delivered", async () => {
  receiver.queue = ["hold"];
  const first = await startServer();
  const created = await fetch(`${first.url}/api/v1/test-sleep`, {
    method: "POST",
    headers: { ...acct.headers, "content-type": "application/json" },
    body: JSON.stringify({ ms: 0 }),
  });
  expect(created.status).toBe(202);
  const { jobId } = (await created.json()).data;
  // The job completed and its event is being delivered: the receiver holds the request, unanswered.
  await until(() => receiver.received.length === 1, 20_000);
  expect(receiver.received[0]!.answered).toBe("held");

  const exited = new Promise((r) => first.child.once("exit", r));
  first.child.kill("SIGKILL");
  await exited;

  const second = await startServer();
  // The killed attempt's lease runs out (15 s), then the restarted runner delivers it.
  await until(() => receiver.received.some((r) => r.answered === 200), 60_000);
  const delivered = receiver.received.filter((r) => r.answered === 200);
  expect(delivered).toHaveLength(1);
  expect(delivered[0]!.id).toBe(receiver.received[0]!.id);
  expect(delivered[0]!.verifiedWith).toEqual([0]);
  expect(delivered[0]!.payload).toMatchObject({
    type: "job.completed",
    data: { jobId, status: "completed" },
  });

  const stopped = new Promise((r) => second.child.once("exit", r));
  second.child.kill("SIGTERM");
  await stopped;
  const rows = await withDb((h) =>
    h.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)),
  );
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ status: "succeeded", attempts: 2, lastStatusCode: 200 });
}, 180_000);
