// npm run bench:isolation: GET /api/v1/credits latency while the job runner of the same server works
// (Postgres). 1. The production build runs seo-aeo-geo-audit jobs on crafted 1 MB pages (runs of one
// character, of spaces, of digits, of `a-a-a-`) from a local site. 2. A server with the real credits
// route and the runner runs a CPU-bound test tool that never awaits, in worker threads and, for
// contrast, in the server's own thread. Each prints p50/p99 idle and during the work (goal: p99 < 200 ms).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createJob } from "@/lib/jobs/create";
import { jobRow } from "@/test/jobs-helpers";
import { STRESS_TOOL_FILE, runner as stressRunner, stressTool } from "@/test/support/tools/stress";
import { benchDatabase, ensureBuild, fmt, type LoadResult, load, NEXT_BIN, startChild } from "./lib";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
// One job at a time by default: on a small machine the tools then leave a core to the server.
const JOBS_IN_FLIGHT = Number(process.env.BENCH_JOBS ?? 1);

if (process.argv[2] === "--serve") {
  await serveStressApp(process.argv[3] === "in-process");
} else {
  await main();
}

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
  } finally {
    site.close();
    await db.drop();
  }
  console.log(`\nGET /api/v1/credits latency, Postgres\n${report.join("\n")}`);
  process.exit(0);
}
