// npm run bench:api: authenticated GET /api/v1/credits on the production build against Postgres,
// beside a minimal node:http + postgres.js server doing the same database work, and their ratio.
import { spawn, spawnSync } from "node:child_process";
import { createHash, timingSafeEqual } from "node:crypto";
import { existsSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import postgres from "postgres";
import { Pool } from "undici";
import { createAccount } from "@/lib/accounts/accounts";
import { migrateDatabase, openDatabase } from "@/lib/db/client";
import { rotateKeyPair } from "@/lib/keys/keys";

const BASE_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 10) * 1000;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

function withDatabase(url: string, db: string) {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/** The baseline: one process, node:http, postgres.js, the same queries as the route's hot path. */
function serveBaseline(url: string) {
  const sql = postgres(url, { max: 10, onnotice: () => {} });
  const server = http.createServer(async (req, res) => {
    const key = String(req.headers["x-api-key"] ?? "");
    const secret = String(req.headers["x-api-secret"] ?? "");
    const [row] =
      await sql`select id, account_id, secret_hash, revoked_at from api_keys where key_id = ${key}`;
    const given = createHash("sha256").update(secret).digest();
    if (!row || row.revoked_at || !timingSafeEqual(given, Buffer.from(row.secret_hash, "hex"))) {
      res.writeHead(401).end();
      return;
    }
    await sql`insert into rate_limit_windows as w (bucket, window_start, count) values (${`key:${row.id}`}, now(), 1)
      on conflict (bucket) do update set count = w.count + 1 returning count`;
    const [acct] = await sql`select credit_balance, total_used from accounts where id = ${row.account_id}`;
    const tx = await sql`select type, amount, description, created_at from credit_ledger
      where account_id = ${row.account_id} order by id desc limit 20`;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        success: true,
        data: { balance: acct!.credit_balance, totalUsed: acct!.total_used, recentTransactions: tx },
      }),
    );
  });
  server.listen(0, "127.0.0.1", () => console.log(`PORT ${(server.address() as AddressInfo).port}`));
}

async function load(origin: string, headers: Record<string, string>) {
  const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const warmupEnd = Date.now() + 2000;
  const end = warmupEnd + DURATION_MS;
  async function worker() {
    while (Date.now() < end) {
      const t0 = performance.now();
      const res = await pool.request({ path: "/api/v1/credits", method: "GET", headers });
      await res.body.arrayBuffer();
      const t1 = performance.now();
      if (Date.now() < warmupEnd) continue;
      if (res.statusCode !== 200) errors++;
      latencies.push(t1 - t0);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await pool.close();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
  return {
    rps: latencies.length / (DURATION_MS / 1000),
    p50: pct(50),
    p99: pct(99),
    errors,
    n: latencies.length,
  };
}

function startChild(
  args: string[],
  env: Record<string, string | undefined>,
  ready: RegExp,
): Promise<{ port: number; kill: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    child.stdout!.on("data", (chunk: Buffer) => {
      const m = chunk.toString().match(ready);
      if (m) resolve({ port: Number(m[1]), kill: () => child.kill("SIGTERM") });
    });
    child.on("exit", (code) => reject(new Error(`child exited ${code}`)));
  });
}

async function main() {
  if (process.argv[2] === "--baseline") return serveBaseline(process.argv[3]!);
  const admin = postgres(BASE_URL, { max: 1, onnotice: () => {} });
  const dbName = `bench_${Date.now()}`;
  await admin.unsafe(`create database ${dbName}`);
  const url = withDatabase(BASE_URL, dbName);
  try {
    const handle = await openDatabase({ url });
    await migrateDatabase(handle);
    const { account } = await createAccount(handle.db, { ownerEmail: "bench@example.com" });
    const key = await rotateKeyPair(handle.db, account.id, { rateLimitPerMinute: 100_000_000 });
    await handle.close();
    const headers = { "x-api-key": key.keyId, "x-api-secret": key.secret };

    if (!existsSync(".next/BUILD_ID")) {
      console.log("building…");
      spawnSync(process.execPath, [path.join("node_modules", "next", "dist", "bin", "next"), "build"], {
        stdio: "inherit",
      });
    }
    const nextBin = path.join("node_modules", "next", "dist", "bin", "next");
    const app = await startChild(
      [nextBin, "start", "-p", "3399", "-H", "127.0.0.1"],
      { DATABASE_URL: url, JOB_WORKER: "off", NEXT_TELEMETRY_DISABLED: "1" },
      /Ready in/,
    );
    const appResult = await load("http://127.0.0.1:3399", headers);
    app.kill();
    const base = await startChild(["--import", "tsx", "bench/api.ts", "--baseline", url], {}, /PORT (\d+)/);
    const baseResult = await load(`http://127.0.0.1:${base.port}`, headers);
    base.kill();

    const fmt = (r: typeof appResult) =>
      `${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50.toFixed(2).padStart(7)} ms   p99 ${r.p99.toFixed(2).padStart(7)} ms   (${r.n} requests, ${r.errors} errors)`;
    console.log(
      `\nGET /api/v1/credits, ${CONCURRENCY} concurrent connections, ${DURATION_MS / 1000} s after 2 s warm-up, Postgres`,
    );
    console.log(`Next.js production build   ${fmt(appResult)}`);
    console.log(`node:http + postgres.js    ${fmt(baseResult)}`);
    console.log(
      `ratio (Next / baseline)    throughput ${(appResult.rps / baseResult.rps).toFixed(2)}x, p50 latency ${(appResult.p50 / baseResult.p50).toFixed(2)}x`,
    );
  } finally {
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}

await main();
