// Shared pieces of the benchmarks: a throwaway Postgres database, child servers, a closed-loop load generator.
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { Pool } from "undici";
import { createAccount } from "@/lib/accounts/accounts";
import { grantCredits } from "@/lib/credits/credits";
import { migrateDatabase, openDatabase } from "@/lib/db/client";
import { rotateKeyPair } from "@/lib/keys/keys";
import { serverNodeFlags, serverProcessEnv } from "@/lib/server/node-flags";

const BASE_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const NEXT_BIN = path.join("node_modules", "next", "dist", "bin", "next");

function withDatabase(url: string, db: string) {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/** A fresh migrated database with one account (credits, unlimited rate), dropped by `drop()`. */
export async function benchDatabase(credits = 0) {
  const admin = postgres(BASE_URL, { max: 1, onnotice: () => {} });
  const name = `bench_${Date.now()}`;
  await admin.unsafe(`create database ${name}`);
  const url = withDatabase(BASE_URL, name);
  const handle = await openDatabase({ url });
  await migrateDatabase(handle);
  const { account } = await createAccount(handle.db, { ownerEmail: "bench@example.com" });
  if (credits > 0) await grantCredits(handle.db, account.id, credits, { description: "bench credits" });
  const key = await rotateKeyPair(handle.db, account.id, { rateLimitPerMinute: 1_000_000_000 });
  return {
    url,
    handle,
    accountId: account.id,
    headers: { "x-api-key": key.keyId, "x-api-secret": key.secret },
    drop: async () => {
      await handle.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

export function ensureBuild() {
  const dist = process.env.NEXT_DIST_DIR ?? ".next";
  if (!existsSync(path.join(dist, "BUILD_ID"))) {
    console.log("building the production bundle…");
    spawnSync(process.execPath, [NEXT_BIN, "build"], { stdio: "inherit" });
  }
}

export function startChild(
  args: string[],
  env: Record<string, string | undefined>,
  ready: RegExp,
): Promise<{ port: number; pid: number; kill: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env } as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "inherit"],
    });
    child.stdout!.on("data", (chunk: Buffer) => {
      if (process.env.BENCH_TRACE_GC) appendFileSync(process.env.BENCH_TRACE_GC, chunk);
      const m = chunk.toString().match(ready);
      if (m) resolve({ port: Number(m[1] ?? 0), pid: child.pid!, kill: () => child.kill("SIGTERM") });
    });
    child.on("exit", (code) => reject(new Error(`child exited ${code}`)));
  });
}

/**
 * The production server as `npm start` runs it (server.ts: /api/v1 on the lean mount unless API_MOUNT=next)
 * on a free port against `databaseUrl`. BENCH_CPU_PROF=<folder> writes its CPU profile there when it stops;
 * BENCH_TRACE_GC=<file> appends its garbage collections (`--trace-gc`, with the rest of its output) to that file.
 */
export async function startServer(databaseUrl: string, env: Record<string, string> = {}) {
  const prof = process.env.BENCH_CPU_PROF;
  const child = await startChild(
    [
      ...(prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : []),
      ...(process.env.BENCH_TRACE_GC ? ["--trace-gc"] : []),
      ...serverNodeFlags({ ...process.env, ...env }),
      "--import",
      "tsx",
      "server.ts",
    ],
    {
      ...serverProcessEnv({ ...process.env, ...env }),
      DATABASE_URL: databaseUrl,
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_ENV: "production",
      // No operator is reached from a benchmark: the runner fetches no IP range list.
      TRACKING_RANGES_REFRESH: "off",
      PORT: "0",
      HOST: "127.0.0.1",
      ...env,
    },
    /Listening on http:\/\/[^\s]+:(\d+)/,
  );
  return { ...child, origin: `http://127.0.0.1:${child.port}` };
}

/** The resident set size of a process, in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? Number.NaN);
  return kb / 1024;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  n: number;
  statuses: Record<number, number>;
}

/** Closed-loop load: `concurrency` clients each sending the next request when the last answers. */
export async function load(
  origin: string,
  request: { path: string; method: "GET" | "POST"; headers: Record<string, string>; body?: string },
  opts: { concurrency: number; seconds: number; warmupSeconds?: number },
): Promise<LoadResult> {
  const pool = new Pool(origin, { connections: opts.concurrency, pipelining: 1 });
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  const warmupEnd = Date.now() + (opts.warmupSeconds ?? 2) * 1000;
  const end = warmupEnd + opts.seconds * 1000;
  async function client() {
    while (Date.now() < end) {
      const t0 = performance.now();
      const res = await pool.request(request);
      await res.body.arrayBuffer();
      const t1 = performance.now();
      if (Date.now() < warmupEnd) continue;
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      latencies.push(t1 - t0);
    }
  }
  await Promise.all(Array.from({ length: opts.concurrency }, client));
  await pool.close();
  return { rps: latencies.length / opts.seconds, ...percentiles(latencies), n: latencies.length, statuses };
}

export function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const pct = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
  return { p50: pct(50), p99: pct(99) };
}

export const fmt = (r: LoadResult) =>
  `${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2).padStart(7)} ms  p99 ${r.p99.toFixed(2).padStart(7)} ms  (${r.n} requests; statuses ${JSON.stringify(r.statuses)})`;

const MONTH_ABBR = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** A time as the combined log format writes it, in UTC: "10/Oct/2026:13:55:36 +0000". */
export function clfTime(t: Date): string {
  const iso = t.toISOString();
  return `${iso.slice(8, 10)}/${MONTH_ABBR[t.getUTCMonth()]}/${iso.slice(0, 4)}:${iso.slice(11, 19)} +0000`;
}
