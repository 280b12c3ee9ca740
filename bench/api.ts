// npm run bench:api: authenticated GET /api/v1/credits on the production server (`npm start`'s server.ts) against
// Postgres, beside a minimal node:http + postgres.js server doing the same database work per request (key lookup,
// rate-limit count, the two reads; it keeps the key lookup the product's key cache saves), at 16 and 64
// connections, with their ratios and the serving process's RSS afterwards.
//   BENCH_SECONDS (default 10), BENCH_CONCURRENCY (default "16,64"), BENCH_NEXT_MOUNT=off skips the Next-mount run.
import { createHash, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import {
  benchDatabase,
  ensureBuild,
  fmt,
  type LoadResult,
  load,
  rssMb,
  startChild,
  startServer,
} from "./lib";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = (process.env.BENCH_CONCURRENCY ?? "16,64").split(",").map(Number);

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
    // The product's rate-limit statement (lib/api/rate-limit.ts), word for word.
    const bucket = `key:${createHash("sha256").update(`key:${row.id}`).digest("base64url").slice(0, 32)}`;
    await sql`insert into rate_limit_windows as w (bucket, window_start, count) values (${bucket}, now(), ${1}::int)
      on conflict (bucket) do update set
        window_start = case when w.window_start <= now() - make_interval(secs => ${60}) then now() else w.window_start end,
        count = case when w.window_start <= now() - make_interval(secs => ${60}) then ${1}::int else w.count + ${1}::int end
      returning count,
        greatest(0, ceil(extract(epoch from (window_start + make_interval(secs => ${60}) - now()))))::int as reset`;
    const [acct] = await sql`select credit_balance, total_used from accounts where id = ${row.account_id}`;
    const tx =
      await sql`select type, amount, description, balance_after, job_id, created_at from credit_ledger
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

if (process.argv[2] === "--baseline") {
  serveBaseline(process.argv[3]!);
} else {
  ensureBuild();
  const db = await benchDatabase();
  try {
    const request = { path: "/api/v1/credits", method: "GET" as const, headers: db.headers };
    // The product as `npm start` serves it (server.ts, lean /api/v1 mount, key cache), and the baseline, both up
    // at once and measured in turn at each connection count, so both see the same machine.
    const app = await startServer(db.url, { JOB_WORKER: "off" });
    const base = await startChild(
      ["--import", "tsx", "bench/api.ts", "--baseline", db.url],
      {},
      /PORT (\d+)/,
    );
    const rows: { c: number; app: LoadResult; base: LoadResult }[] = [];
    for (const c of CONNECTIONS) {
      const appResult = await load(app.origin, request, { concurrency: c, seconds: SECONDS });
      const baseResult = await load(`http://127.0.0.1:${base.port}`, request, {
        concurrency: c,
        seconds: SECONDS,
      });
      rows.push({ c, app: appResult, base: baseResult });
    }
    const rss = rssMb(app.pid);
    app.kill();
    base.kill();
    // For comparison: the same handlers through Next's request pipeline (API_MOUNT=next), as before the lean mount.
    let viaNext: LoadResult | null = null;
    if (process.env.BENCH_NEXT_MOUNT !== "off") {
      const next = await startServer(db.url, { JOB_WORKER: "off", API_MOUNT: "next" });
      viaNext = await load(next.origin, request, { concurrency: CONNECTIONS[0]!, seconds: SECONDS });
      next.kill();
    }
    console.log(`\nGET /api/v1/credits, ${SECONDS} s per run after 2 s warm-up, Postgres`);
    for (const { c, app: a, base: b } of rows) {
      console.log(`${String(c).padStart(3)} connections`);
      console.log(`  product (npm start, lean /api/v1)  ${fmt(a)}`);
      console.log(`  node:http + postgres.js baseline   ${fmt(b)}`);
      const tr = a.rps / b.rps;
      const lr = a.p50 / b.p50;
      console.log(
        `  ratio  throughput ${tr.toFixed(2)}x (goal >= 0.70: ${tr >= 0.7 ? "met" : "NOT met"}), p50 ${lr.toFixed(2)}x (goal <= 1.50: ${lr <= 1.5 ? "met" : "NOT met"})`,
      );
    }
    if (viaNext)
      console.log(`${CONNECTIONS[0]} connections through Next's pipeline (API_MOUNT=next)  ${fmt(viaNext)}`);
    console.log(
      `serving process RSS after the runs: ${rss.toFixed(0)} MB (goal < 400 MB: ${rss < 400 ? "met" : "NOT met"})`,
    );
  } finally {
    await db.drop();
  }
  process.exit(0);
}
