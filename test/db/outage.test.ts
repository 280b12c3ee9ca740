import { connect, createServer, type Server, type Socket } from "node:net";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { toolRoute } from "@/lib/api/tool-route";
import { findLedgerMismatches } from "@/lib/credits/credits";
import { type DbHandle, openDatabase } from "@/lib/db/client";
import { creditLedger, jobs } from "@/lib/db/schema";
import { JobRunner } from "@/lib/jobs/runner";
import { createTestAccount, type TestAccount } from "../accounts";
import { startTestApi, type TestApi } from "../api-server";
import { createTestDb, isPostgres } from "../db";
import { sleepTool, testTools } from "../jobs-helpers";

// Postgres goes away under a serving app (its connections cut, new ones refused) and comes back:
// requests fail fast in the envelope, the app recovers without a restart, and no credit is lost.

/** A TCP proxy in front of Postgres that the test can cut and restore. */
class CuttableProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;
  get listening(): boolean {
    return this.server !== null;
  }
  constructor(
    private readonly host: string,
    private readonly upstreamPort: number,
  ) {}

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.upstreamPort, this.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

const pg = isPostgres();
let direct: DbHandle & { url?: string };
let app: DbHandle;
let api: TestApi;
let proxy: CuttableProxy;
let runner: JobRunner;
let acct: TestAccount;
const createSleep = toolRoute(sleepTool).POST!;

beforeAll(async () => {
  if (!pg) return;
  direct = await createTestDb();
  const target = new URL(direct.url!);
  proxy = new CuttableProxy(target.hostname, Number(target.port || 5432));
  await proxy.start();
  target.hostname = "127.0.0.1";
  target.port = String(proxy.port);
  // The app's own connection settings (postgresOptions), through the proxy.
  app = await openDatabase({ url: target.toString() });
  api = await startTestApi(app);
  runner = new JobRunner(
    app.db,
    { concurrency: 4, leaseSeconds: 2, queueTimeoutSeconds: 600, pollMs: 200 },
    testTools,
  );
  runner.start();
  acct = await createTestAccount(direct.db, { credits: 1000 });
});
afterAll(async () => {
  if (!pg) return;
  if (!proxy.listening) await proxy.start();
  await runner?.stop().catch(() => {});
  await api?.close();
  await app?.close();
  await proxy?.cut();
  await direct?.close();
});

async function createJob(ms: number): Promise<{ status: number; body: any; elapsed: number }> {
  const started = Date.now();
  const res = await createSleep(
    new Request(`${api.url}/api/v1/test-sleep`, {
      method: "POST",
      headers: { ...acct.headers, "content-type": "application/json" },
      body: JSON.stringify({ ms }),
    }),
    { params: Promise.resolve({}) } as never,
  );
  return { status: res.status, body: await res.json(), elapsed: Date.now() - started };
}

async function call(path: string) {
  const started = Date.now();
  const res = await fetch(`${api.url}${path}`, { headers: acct.headers });
  return { status: res.status, body: await res.json(), elapsed: Date.now() - started };
}

test.skipIf(!pg)(
  "a database outage answers INTERNAL_ERROR within 5 s, recovers without restart, and keeps the ledger whole",
  async () => {
    const logged: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      logged.push(
        args
          .map((a) => (typeof a === "string" ? a : JSON.stringify(a, Object.getOwnPropertyNames(a ?? {}))))
          .join(" "),
      );
    });
    try {
      const created: string[] = [];
      for (const ms of [200, 900, 900, 900, 900, 1_200, 1_200, 300]) {
        const r = await createJob(ms);
        expect(r.status).toBe(202);
        created.push(r.body.data.jobId);
      }
      expect((await call("/api/v1/credits")).body.data.balance).toBe(1000 - 8 * 7);
      await new Promise((r) => setTimeout(r, 400));

      await proxy.cut();
      const during = await Promise.all([
        ...Array.from({ length: 4 }, () => call("/api/v1/credits")),
        ...created.slice(0, 4).map((id) => call(`/api/v1/jobs/${id}`)),
        ...Array.from({ length: 4 }, () => createJob(100)),
      ]);
      for (const r of during) {
        expect(r.status).toBe(500);
        expect(r.body).toMatchObject({ success: false, error: { code: "INTERNAL_ERROR" } });
        expect(r.body.requestId).toMatch(/^req_/);
        expect(r.elapsed).toBeLessThan(5_000);
      }
      // Keep the database away while the in-flight jobs finish their tool work.
      await new Promise((r) => setTimeout(r, 2_500));
      const again = await call("/api/v1/credits");
      expect(again.status).toBe(500);
      expect(again.elapsed).toBeLessThan(5_000);

      await proxy.start();
      const recoveredAt = Date.now();
      let back = await call("/api/v1/credits");
      while (back.status !== 200 && Date.now() - recoveredAt < 15_000) {
        await new Promise((r) => setTimeout(r, 200));
        back = await call("/api/v1/credits");
      }
      expect(back.status).toBe(200);

      // New work runs on the same app and runner.
      const after = await createJob(50);
      expect(after.status).toBe(202);
      created.push(after.body.data.jobId);

      // Every job ends completed, or failed with its credits refunded, within the lease recovery time.
      const end = Date.now() + 30_000;
      let rows = await direct.db.select().from(jobs).where(inArray(jobs.id, created));
      while (rows.some((j) => j.status === "pending" || j.status === "processing") && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 250));
        rows = await direct.db.select().from(jobs).where(inArray(jobs.id, created));
      }
      expect(rows).toHaveLength(created.length);
      const ledger = await direct.db.select().from(creditLedger).where(inArray(creditLedger.jobId, created));
      for (const job of rows) {
        expect(["completed", "failed"]).toContain(job.status);
        const net = ledger.filter((l) => l.jobId === job.id).reduce((sum, l) => sum + l.amount, 0);
        expect({ job: job.id, status: job.status, net }).toEqual({
          job: job.id,
          status: job.status,
          net: job.status === "completed" ? -7 : 0,
        });
      }
      expect(rows.find((j) => j.id === after.body.data.jobId)!.status).toBe("completed");
      // Jobs were in flight when the database went: some of them could not finish and were refunded.
      expect(rows.filter((j) => j.status === "failed").length).toBeGreaterThan(0);
      process.stdout.write(
        `outage: slowest failed request ${Math.max(...during.map((r) => r.elapsed), again.elapsed)} ms, ` +
          `recovered ${Date.now() - recoveredAt} ms after the database returned (incl. job drain), ` +
          `jobs ${rows.map((j) => j.status).join(",")}\n`,
      );
      expect(await findLedgerMismatches(direct.db)).toEqual([]);

      // The logs name the failure without the statements' parameters or the caller's secret.
      expect(logged.length).toBeGreaterThan(0);
      const log = logged.join("\n");
      expect(log).not.toContain(acct.headers["x-api-secret"]);
      expect(log).not.toContain("params:");
      expect(log).not.toContain("Failed query");
    } finally {
      spy.mockRestore();
    }
  },
  90_000,
);
