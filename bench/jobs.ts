// npm run bench:jobs: accepted, billed job creations per second under 20 concurrent clients on Postgres
// (the production server as `npm start` runs it, runner off), and the dispatch latency from creation to
// `processing` with the in-process runner (runner on), and the serving process's RSS.
import { sql } from "drizzle-orm";
import { findLedgerMismatches } from "@/lib/credits/credits";
import { rowsOf } from "@/lib/db/rows";
import { benchDatabase, ensureBuild, fmt, load, percentiles, rssMb, startServer } from "./lib";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const DISPATCH_JOBS = Number(process.env.BENCH_DISPATCH_JOBS ?? 200);

ensureBuild();
const db = await benchDatabase(100_000_000);
try {
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

  // 2. Dispatch latency: jobs created one after another at a steady pace, runner in the server process.
  await db.handle.db.execute(sql`delete from jobs`);
  const withRunner = await startServer(db.url, { JOB_WORKER: "on", JOB_CONCURRENCY: "8" });
  for (let i = 0; i < DISPATCH_JOBS; i++) {
    const res = await fetch(`${withRunner.origin}/api/v1/faq-generator`, {
      method: "POST",
      headers: { ...db.headers, "content-type": "application/json" },
      body: JSON.stringify({ url: "https://example.com/" }),
    });
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 2000));
  const rss = rssMb(withRunner.pid);
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
  console.log(`  ledger mismatches after the run: ${mismatches.length}`);
  console.log(
    `Dispatch latency (created_at → started_at), in-process runner, ${rows.length}/${DISPATCH_JOBS} jobs dispatched`,
  );
  console.log(
    `  p50 ${dispatch.p50.toFixed(1)} ms   p99 ${dispatch.p99.toFixed(1)} ms (goal p50 <= 50 ms: ${dispatch.p50 <= 50 ? "met" : "NOT met"})`,
  );
  console.log(
    `Goal >= 500 billed creations/s with an exact ledger: ${created.rps >= 500 && mismatches.length === 0 ? "met" : "NOT met"} (${created.rps.toFixed(0)}/s, ${mismatches.length} mismatches)`,
  );
  console.log(
    `serving process RSS after the runs: ${rss.toFixed(0)} MB (goal < 400 MB: ${rss < 400 ? "met" : "NOT met"})`,
  );
} finally {
  await db.drop();
}
process.exit(0);
