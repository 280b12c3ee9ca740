// npm run bench:isolation: what one piece of work costs everything else on the same server.
// 1. GET /api/v1/credits latency while the production build runs seo-aeo-geo-audit jobs on crafted 1 MB pages
//    (runs of one character, of spaces, of digits, of `a-a-a-`) from a local site (Postgres).
// 2. The same while a server with the real credits route and the runner runs a CPU-bound test tool that never
//    awaits, in worker threads and, for contrast, in the server's own thread (Postgres).
// 3. Fairness: one account keeps 8 audits of hostile pages in flight while another account runs small jobs one
//    after another; the other account's wait from creation to start (goal: p99 <= 2 s).
// 4. GET /api/v1/credits latency while 10 MB access logs are uploaded, on the embedded database (PGlite).
// Cases 1, 2 and 4 print p50/p99 idle and during the work (goal: p99 <= 200 ms).
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createAccount } from "@/lib/accounts/accounts";
import { registerDomain } from "@/lib/accounts/domains";
import { grantCredits } from "@/lib/credits/credits";
import { migrateDatabase, openDatabase } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { createJob } from "@/lib/jobs/create";
import { rotateKeyPair } from "@/lib/keys/keys";
import { jobRow } from "@/test/jobs-helpers";
import { STRESS_TOOL_FILE, runner as stressRunner, stressTool } from "@/test/support/tools/stress";
import {
  benchDatabase,
  clfTime,
  ensureBuild,
  fmt,
  type LoadResult,
  load,
  NEXT_BIN,
  percentiles,
  startChild,
  startServer,
} from "./lib";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
// One job at a time by default: on a small machine the tools then leave a core to the server.
const JOBS_IN_FLIGHT = Number(process.env.BENCH_JOBS ?? 1);
const FAIR_FLOOD = Number(process.env.BENCH_FLOOD_JOBS ?? 8);
const FAIR_SAMPLES = Number(process.env.BENCH_FAIR_JOBS ?? 20);
/** BENCH_CASES=3,4 runs only those cases. */
const CASES = new Set((process.env.BENCH_CASES ?? "1,2,3,4").split(",").map((c) => Number(c.trim())));

/** The credits route and the in-process runner with the test-stress tool, in one process. */
async function serveStressApp(inProcess: boolean) {
  const credits = await import("@/app/api/v1/credits/route");
  const { toolSourceFrom } = await import("@/lib/jobs/runner");
  const { startServerRuntime } = await import("@/lib/server-runtime");
  await startServerRuntime(
    toolSourceFrom({
      "test-stress": {
        definition: { ...stressTool, timeoutMs: 60_000 },
        runner: stressRunner,
        file: inProcess ? undefined : STRESS_TOOL_FILE,
      },
    }),
  );
  const server = http.createServer(async (req, res) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const response = await credits.GET(new Request(`http://127.0.0.1${req.url}`, { headers }), {
      params: Promise.resolve({}),
    } as never);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  server.listen(0, "127.0.0.1", () => console.log(`PORT ${(server.address() as AddressInfo).port}`));
}

/** 1 MB of text that made quadratic patterns blow up, in an otherwise ordinary page. */
function adversarialPages(): Record<string, string> {
  const size = 1024 * 1024;
  const payloads: Record<string, string> = {
    "/a-a": "a-".repeat(size / 2),
    "/spaces": `x${" ".repeat(size - 2)}y`,
    "/digits": "1".repeat(size),
    "/one-char": "a".repeat(size),
    "/nested": "<div><span><b>".repeat(size / 15),
  };
  return Object.fromEntries(
    Object.entries(payloads).map(([path, body]) => [
      path,
      `<!doctype html><html lang="en"><head><title>Crafted page</title></head><body><h1>Crafted</h1><p>${body}</p></body></html>`,
    ]),
  );
}

async function startSite(): Promise<{ url: string; close: () => void }> {
  const pages = adversarialPages();
  pages["/small"] =
    '<!doctype html><html lang="en"><head><title>Small page</title></head><body><main><h1>Small</h1><h2>Why?</h2><p>A page that answers fast.</p></main></body></html>';
  const server = http.createServer((req, res) => {
    const page = pages[new URL(req.url ?? "/", "http://x").pathname];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}

/** A free port for `next start` (it takes a number; the OS picks it, then it is released at once). */
async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Keeps `n` jobs in flight (a new one as each ends) until `stop` resolves; counts how they ended. */
async function keepBusy(n: number, create: () => Promise<string>, status: (id: string) => Promise<string>) {
  const outcomes: Record<string, number> = {};
  let stopping = false;
  const lanes = Array.from({ length: n }, async () => {
    while (!stopping) {
      const id = await create();
      for (;;) {
        const s = await status(id);
        if (s === "completed" || s === "failed") {
          outcomes[s] = (outcomes[s] ?? 0) + 1;
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  });
  return {
    outcomes,
    stop: async () => {
      stopping = true;
      await Promise.all(lanes);
    },
  };
}

async function measure(
  origin: string,
  headers: Record<string, string>,
  busy: () => Promise<{ outcomes: Record<string, number>; stop: () => Promise<void> }>,
): Promise<{ idle: LoadResult; during: LoadResult; outcomes: Record<string, number> }> {
  const request = { path: "/api/v1/credits", method: "GET" as const, headers };
  const opts = { concurrency: CONCURRENCY, seconds: SECONDS };
  const idle = await load(origin, request, opts);
  const work = await busy();
  const during = await load(origin, request, opts);
  await work.stop();
  return { idle, during, outcomes: work.outcomes };
}

async function main() {
  ensureBuild();
  const db = await benchDatabase(100_000_000);
  const site = await startSite();
  const report: string[] = [];
  try {
    // 1. The production build: seo-aeo-geo-audit on the crafted pages.
    if (CASES.has(1)) await auditsCase();
    if (CASES.has(2)) await stressCase();
    // 3. Fairness: one account floods the queue with hostile audits; another runs small jobs one at a time.
    if (CASES.has(3)) report.push(...(await fairness(db, site.url)));
  } finally {
    site.close();
    await db.drop();
  }
  // 4. A 10 MB access log uploaded to a server on the embedded database.
  if (CASES.has(4)) report.push(...(await logUploadOnPglite()));
  console.log(`\nbench:isolation\n${report.join("\n")}`);
  process.exit(0);

  async function auditsCase() {
    const port = await freePort();
    const app = await startChild(
      [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"],
      {
        DATABASE_URL: db.url,
        NEXT_TELEMETRY_DISABLED: "1",
        JOB_WORKER: "on",
        JOB_CONCURRENCY: String(JOBS_IN_FLIGHT),
        JOB_POLL_MS: "100",
        ALLOW_PRIVATE_TARGETS: "loopback",
      },
      /Ready in/,
    );
    const origin = `http://127.0.0.1:${port}`;
    const paths = ["/a-a", "/spaces", "/digits", "/one-char"];
    let next = 0;
    const audits = await measure(origin, db.headers, async () =>
      keepBusy(
        JOBS_IN_FLIGHT,
        async () => {
          const res = await fetch(`${origin}/api/v1/seo-aeo-geo-audit`, {
            method: "POST",
            headers: { ...db.headers, "content-type": "application/json" },
            body: JSON.stringify({ url: `${site.url}${paths[next++ % paths.length]}` }),
          });
          return (await res.json()).data.jobId as string;
        },
        async (id) =>
          (await (await fetch(`${origin}/api/v1/jobs/${id}`, { headers: db.headers })).json()).data.status,
      ),
    );
    app.kill();
    report.push(
      `1. Production build, seo-aeo-geo-audit on 1 MB crafted pages (${JOBS_IN_FLIGHT} jobs in flight, ${CONCURRENCY} concurrent clients, ${SECONDS} s)`,
      `   idle           ${fmt(audits.idle)}`,
      `   during audits  ${fmt(audits.during)}`,
      `   audit jobs ended: ${JSON.stringify(audits.outcomes)}`,
    );
  }

  async function stressCase() {
    // 2. A CPU-bound tool (2 s without an await per job), in worker threads and in the server's thread.
    const stress = stressTool;
    for (const mode of ["worker", "in-process"] as const) {
      const child = await startChild(
        ["--import", "tsx", "bench/isolation.ts", "--serve", mode],
        {
          DATABASE_URL: db.url,
          JOB_WORKER: "on",
          JOB_CONCURRENCY: String(JOBS_IN_FLIGHT),
          JOB_POLL_MS: "50",
        },
        /PORT (\d+)/,
      );
      const spin = await measure(`http://127.0.0.1:${child.port}`, db.headers, async () =>
        keepBusy(
          JOBS_IN_FLIGHT,
          async () =>
            (
              await createJob(db.handle.db, {
                accountId: db.accountId,
                tool: stress,
                input: stress.input.parse({ mode: "spin", ms: 2000 }),
              })
            ).job.id,
          async (id) => (await jobRow(db.handle.db, id))?.status ?? "missing",
        ),
      );
      child.kill();
      report.push(
        `2${mode === "worker" ? "a" : "b"}. Route + runner in one process, CPU-bound tool (2 s per job, no await), ${mode === "worker" ? "in worker threads" : "in the server's thread (no isolation, for contrast)"}`,
        `   idle           ${fmt(spin.idle)}`,
        `   during jobs    ${fmt(spin.during)}`,
        `   jobs ended: ${JSON.stringify(spin.outcomes)}`,
      );
    }
  }
}

async function fairness(db: Awaited<ReturnType<typeof benchDatabase>>, siteUrl: string): Promise<string[]> {
  const { account } = await createAccount(db.handle.db, { ownerEmail: "other@example.com" });
  await grantCredits(db.handle.db, account.id, 1_000_000, { description: "bench credits" });
  const key = await rotateKeyPair(db.handle.db, account.id, { rateLimitPerMinute: 1_000_000_000 });
  const otherHeaders = { "x-api-key": key.keyId, "x-api-secret": key.secret };
  const app = await startServer(db.url, {
    JOB_WORKER: "on",
    JOB_POLL_MS: "100",
    ALLOW_PRIVATE_TARGETS: "loopback",
  });
  const post = async (headers: Record<string, string>, tool: string, url: string) => {
    const res = await fetch(`${app.origin}/api/v1/${tool}`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ url }),
    });
    return (await res.json()).data.jobId as string;
  };
  const status = async (headers: Record<string, string>, id: string) =>
    (await (await fetch(`${app.origin}/api/v1/jobs/${id}`, { headers })).json()).data.status as string;
  const hostile = ["/nested", "/a-a", "/spaces", "/digits", "/one-char"];
  let next = 0;
  const flood = await keepBusy(
    FAIR_FLOOD,
    () => post(db.headers, "seo-aeo-geo-audit", `${siteUrl}${hostile[next++ % hostile.length]}`),
    (id) => status(db.headers, id),
  );
  const ids: string[] = [];
  try {
    await new Promise((r) => setTimeout(r, 2000)); // the flood holds its slots
    for (let i = 0; i < FAIR_SAMPLES; i++) {
      const id = await post(otherHeaders, "faq-generator", `${siteUrl}/small`);
      ids.push(id);
      for (let s = await status(otherHeaders, id); s === "pending" || s === "processing"; ) {
        await new Promise((r) => setTimeout(r, 50));
        s = await status(otherHeaders, id);
      }
    }
  } finally {
    await flood.stop();
    app.kill();
  }
  const waits = rowsOf<{ ms: number }>(
    await db.handle.db.execute(
      sql`select extract(epoch from (started_at - created_at)) * 1000 as ms from jobs where id in ${ids} and started_at is not null`,
    ),
  ).map((r) => Number(r.ms));
  const p = percentiles(waits);
  return [
    `3. Fairness: one account keeps ${FAIR_FLOOD} seo-aeo-geo-audit jobs on hostile pages in flight; another runs ${FAIR_SAMPLES} faq-generator jobs one after another (production server, runner on, default concurrency)`,
    `   the other account's wait, created -> started: p50 ${p.p50.toFixed(0)} ms   p99 ${p.p99.toFixed(0)} ms   (${waits.length}/${FAIR_SAMPLES} started; goal p99 <= 2000 ms: ${p.p99 <= 2000 && waits.length === FAIR_SAMPLES ? "met" : "NOT met"})`,
    `   flood jobs ended: ${JSON.stringify(flood.outcomes)}`,
  ];
}

const LOG_AGENTS = [
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
  "Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
];

/** About 10 MB of combined-format bot lines; `round` shifts the times so each upload stores new visits. */
function accessLog(round: number): { body: Uint8Array; lines: number } {
  const lines: string[] = [];
  const start = Date.now() - 60 * 86_400_000 + round * 86_400_000;
  let bytes = 0;
  for (let i = 0; bytes < 10 * 1024 * 1024 - 400; i++) {
    const t = new Date(start + i * 1_000);
    const line = `66.249.66.${i % 250} - - [${clfTime(t)}] "GET /blog/post-${i % 5000}?ref=${i} HTTP/1.1" 200 ${1000 + (i % 9000)} "-" "${LOG_AGENTS[i % LOG_AGENTS.length]}"`;
    lines.push(line);
    bytes += line.length + 1;
  }
  return { body: new TextEncoder().encode(`${lines.join("\n")}\n`), lines: lines.length };
}

async function logUploadOnPglite(): Promise<string[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-isolation-pglite-"));
  const dataDir = path.join(dir, "pglite");
  try {
    const handle = await openDatabase({ dataDir });
    await migrateDatabase(handle);
    const { account } = await createAccount(handle.db, { ownerEmail: "logs@example.com" });
    await registerDomain(handle.db, account.id, "logs.example");
    const key = await rotateKeyPair(handle.db, account.id, { rateLimitPerMinute: 1_000_000_000 });
    await handle.close();
    const headers = { "x-api-key": key.keyId, "x-api-secret": key.secret };
    const app = await startServer("", { PGLITE_DATA_DIR: dataDir, JOB_WORKER: "off" });
    let round = 0;
    let lines = 0;
    const uploads: number[] = [];
    try {
      const result = await measure(app.origin, headers, async () => {
        let stopping = false;
        const outcomes: Record<string, number> = {};
        const lane = (async () => {
          while (!stopping) {
            const log = accessLog(round++);
            lines = log.lines;
            const t0 = performance.now();
            const res = await fetch(`${app.origin}/api/v1/tracking/logs?domain=logs.example`, {
              method: "POST",
              headers: { ...headers, "content-type": "text/plain" },
              body: log.body as Uint8Array<ArrayBuffer>,
            });
            await res.arrayBuffer();
            uploads.push(performance.now() - t0);
            outcomes[String(res.status)] = (outcomes[String(res.status)] ?? 0) + 1;
          }
        })();
        return {
          outcomes,
          stop: async () => {
            stopping = true;
            await lane;
          },
        };
      });
      return [
        `4. Embedded database (PGlite): 10 MB access logs (${lines} lines each) uploaded one after another (${CONCURRENCY} concurrent clients, ${SECONDS} s)`,
        `   idle            ${fmt(result.idle)}`,
        `   during uploads  ${fmt(result.during)}   (goal p99 <= 200 ms: ${result.during.p99 <= 200 ? "met" : "NOT met"})`,
        `   uploads: ${JSON.stringify(result.outcomes)}, ${uploads.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ")}`,
      ];
    } finally {
      app.kill();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Last, once every constant above is initialised.
if (process.argv[2] === "--serve") {
  await serveStressApp(process.argv[3] === "in-process");
} else {
  await main();
}
