// npm run bench:jobs: accepted, billed job creations per second under 20 concurrent clients on Postgres
// (the production server as `npm start` runs it, runner off), and the dispatch latency from creation to
// `processing` with the in-process runner (runner on), and the serving process's RSS.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { findLedgerMismatches } from "@/lib/credits/credits";
import { rowsOf } from "@/lib/db/rows";
import { benchDatabase, ensureBuild, fmt, load, percentiles, rssMb, startServer } from "./lib";

/** The tool threads' idle time in the dispatch run, so the RSS after it can be read once they have ended. */
const IDLE_MS = 5000;

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const DISPATCH_JOBS = Number(process.env.BENCH_DISPATCH_JOBS ?? 200);
const PAGE = `<!doctype html><html lang="en"><head><title>Bench FAQ</title><meta name="description" content="A page to ask about."></head>
<body><main><h1>Bench FAQ</h1><h2>What is this?</h2><p>A page the benchmark serves locally.</p>
<h2>How long does it take?</h2><p>A few milliseconds.</p></main></body></html>`;

ensureBuild();
const CREDITS = 100_000_000;
const db = await benchDatabase(CREDITS);
// The page the dispatch jobs fetch: local, so a job finishes in milliseconds and frees its slot (the
// dispatch latency is then the runner's wake-up and claim, not the queue behind slow jobs).
const page = http.createServer((_req, res) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end(PAGE);
});
await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
try {
  const [start] = rowsOf<{ balance: number }>(
    await db.handle.db.execute(
      sql`select credit_balance as balance from accounts where id = ${db.accountId}`,
    ),
  );
  // 1. Creation throughput: every 202 is a billed job (charge + job + ledger row in one transaction).
  const app = await startServer(db.url, { JOB_WORKER: "off" });
  const created = await load(
    app.origin,
    {
      path: "/api/v1/faq-generator",
      method: "POST",
      headers: { ...db.headers, "content-type": "application/json" },
      body: JSON.stringify({ url: "https://example.com/" }),
    },
    { concurrency: CONCURRENCY, seconds: SECONDS },
  );
  app.kill();
  await new Promise((r) => setTimeout(r, 1000));
  const mismatches = await findLedgerMismatches(db.handle.db);
  // Exact: every 202 is a job, the balance equals the ledger's sum, and what the balance lost is what the jobs
  // kept (charged less refunded) and what their ledger rows (spend and refund) say.
  const [books] = rowsOf<{ balance: number; jobs: number; kept: number; ledger: number }>(
    await db.handle.db.execute(sql`
      select (select credit_balance from accounts where id = ${db.accountId}) as balance,
             (select count(*) from jobs where account_id = ${db.accountId}) as jobs,
             (select coalesce(sum(credits_charged - credits_refunded_amount), 0) from jobs
               where account_id = ${db.accountId}) as kept,
             (select coalesce(-sum(amount), 0) from credit_ledger
               where account_id = ${db.accountId} and job_id is not null) as ledger`),
  );
  const accepted = created.statuses[202] ?? 0;
  const lost = Number(start!.balance) - Number(books!.balance);
  const exact =
    mismatches.length === 0 &&
    Number(books!.kept) === lost &&
    Number(books!.ledger) === lost &&
    Number(books!.jobs) >= accepted;

  // 2. Dispatch latency: jobs created one after another at a steady pace, runner in the server process.
  await db.handle.db.execute(sql`delete from jobs`);
  const withRunner = await startServer(db.url, {
    JOB_WORKER: "on",
    JOB_CONCURRENCY: "8",
    ALLOW_PRIVATE_TARGETS: "loopback",
    TOOL_WORKER_IDLE_MS: String(IDLE_MS),
  });
  // Warm-up: one job per slot, so the tool worker threads have started (and compiled the tool) before the
  // measured jobs arrive; then only the measured jobs stay in the table.
  const post = () =>
    fetch(`${withRunner.origin}/api/v1/faq-generator`, {
      method: "POST",
      headers: { ...db.headers, "content-type": "application/json" },
      body: JSON.stringify({ url: pageUrl }),
    }).then((res) => res.arrayBuffer());
  await Promise.all(Array.from({ length: 8 }, post));
  for (let waited = 0; waited < 120_000; waited += 250) {
    const [left] = rowsOf<{ n: number }>(
      await db.handle.db.execute(
        sql`select count(*)::int as n from jobs where status in ('pending', 'processing')`,
      ),
    );
    if (Number(left?.n) === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  await db.handle.db.execute(sql`delete from jobs`);
  for (let i = 0; i < DISPATCH_JOBS; i++) {
    const res = await fetch(`${withRunner.origin}/api/v1/faq-generator`, {
      method: "POST",
      headers: { ...db.headers, "content-type": "application/json" },
      body: JSON.stringify({ url: pageUrl }),
    });
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 2000));
  const rss = rssMb(withRunner.pid);
  // Idle tool threads end after TOOL_WORKER_IDLE_MS (set short here) and give their heaps back.
  await new Promise((r) => setTimeout(r, IDLE_MS + 3000));
  const rssIdle = rssMb(withRunner.pid);
  withRunner.kill();
  const rows = rowsOf<{ ms: number }>(
    await db.handle.db.execute(
      sql`select extract(epoch from (started_at - created_at)) * 1000 as ms from jobs where started_at is not null`,
    ),
  );
  const dispatch = percentiles(rows.map((r) => Number(r.ms)));

  console.log(
    `\nJob creation: POST /api/v1/faq-generator (20 credits), ${CONCURRENCY} concurrent clients, ${SECONDS} s, Postgres`,
  );
  console.log(`  accepted and billed  ${fmt(created)}`);
  console.log(
    `  ledger after the run: ${mismatches.length} accounts where balance <> sum(ledger); balance fell by ${lost}, jobs kept ${books!.kept}, their ledger rows sum to ${books!.ledger} (${books!.jobs} jobs, ${accepted} answers 202 after the warm-up): ${exact ? "exact" : "NOT exact"}`,
  );
  console.log(
    `Dispatch latency (created_at → started_at), in-process runner, ${rows.length}/${DISPATCH_JOBS} jobs dispatched`,
  );
  console.log(
    `  p50 ${dispatch.p50.toFixed(1)} ms   p99 ${dispatch.p99.toFixed(1)} ms (goal p50 <= 50 ms: ${dispatch.p50 <= 50 ? "met" : "NOT met"})`,
  );
  console.log(
    `Goal >= 500 billed creations/s with an exact ledger: ${created.rps >= 500 && exact ? "met" : "NOT met"} (${created.rps.toFixed(0)}/s, ledger ${exact ? "exact" : "NOT exact"})`,
  );
  console.log(
    `serving process RSS right after the runs: ${rss.toFixed(0)} MB, with the 8 tool threads still warm; ` +
      `once they have idled out (${IDLE_MS / 1000} s): ${rssIdle.toFixed(0)} MB (goal < 400 MB: ${rssIdle < 400 ? "met" : "NOT met"})`,
  );
} finally {
  page.close();
  await db.drop();
}
process.exit(0);
