// npm run bench:api: authenticated GET /api/v1/credits on the production build against Postgres,
// beside a minimal node:http + postgres.js server doing the same database work, and their ratio.
import { createHash, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import { benchDatabase, ensureBuild, fmt, load, startChild, startNext } from "./lib";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

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

if (process.argv[2] === "--baseline") {
  serveBaseline(process.argv[3]!);
} else {
  ensureBuild();
  const db = await benchDatabase();
  try {
    const request = { path: "/api/v1/credits", method: "GET" as const, headers: db.headers };
    const opts = { concurrency: CONCURRENCY, seconds: SECONDS };
    const app = await startNext(3399, db.url, { JOB_WORKER: "off" });
    const appResult = await load("http://127.0.0.1:3399", request, opts);
    app.kill();
    const base = await startChild(
      ["--import", "tsx", "bench/api.ts", "--baseline", db.url],
      {},
      /PORT (\d+)/,
    );
    const baseResult = await load(`http://127.0.0.1:${base.port}`, request, opts);
    base.kill();
    console.log(
      `\nGET /api/v1/credits, ${CONCURRENCY} concurrent connections, ${SECONDS} s after 2 s warm-up, Postgres`,
    );
    console.log(`Next.js production build  ${fmt(appResult)}`);
    console.log(`node:http + postgres.js   ${fmt(baseResult)}`);
    console.log(
      `ratio (Next / baseline)   throughput ${(appResult.rps / baseResult.rps).toFixed(2)}x, p50 latency ${(appResult.p50 / baseResult.p50).toFixed(2)}x`,
    );
  } finally {
    await db.drop();
  }
  process.exit(0);
}
