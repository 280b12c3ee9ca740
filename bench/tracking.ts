// npm run bench:tracking: ingest throughput (batches of 1000 events) and the latency of the stats and citations
// reads with BENCH_VISITS visits (default 10 million) loaded, on a throwaway Postgres database.
//   BENCH_DATABASE_URL / DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres)
//   BENCH_VISITS (default 10000000), BENCH_INGEST_BATCHES (default 30), BENCH_READS (default 200)

import { readdirSync, readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { Pool } from "undici";
import { createAccount } from "@/lib/accounts/accounts";
import { registerDomain } from "@/lib/accounts/domains";
import { migrateDatabase, openDatabase } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { rotateKeyPair } from "@/lib/keys/keys";
import { classifyUserAgent } from "@/lib/tracking/catalog/classify";
import { generateSampleVisits, SAMPLE_BOT_USER_AGENTS } from "@/lib/tracking/demo/sample-traffic";
import { ingestEvents } from "@/lib/tracking/ingest/ingest-visits";
import { getCitations } from "@/lib/tracking/reports/citations-query";
import { trackingReadCache } from "@/lib/tracking/reports/read-cache";
import { getBotStats } from "@/lib/tracking/reports/stats";
import { listBotVisits } from "@/lib/tracking/reports/visits-list";
import { ensureBuild, rssMb, startServer } from "./lib";

const BASE =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const VISITS = Number(process.env.BENCH_VISITS ?? 10_000_000);
const INGEST_BATCHES = Number(process.env.BENCH_INGEST_BATCHES ?? 30);
const READS = Number(process.env.BENCH_READS ?? 200);
const HTTP_BATCHES = Number(process.env.BENCH_HTTP_BATCHES ?? 400);
const HTTP_WARMUP_BATCHES = Number(process.env.BENCH_HTTP_WARMUP_BATCHES ?? 60);
const LOAD_CHUNK = 1_000_000;
const DOMAIN = "bench.example";

/** CPU seconds (user + system) a process has used, from /proc (Linux); 0 once it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
}
/** CPU seconds used by every postgres process on this machine (the database the bench writes to). */
function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").startsWith("postgres"))
        total += cpuSeconds(Number(entry));
    } catch {}
  }
  return total;
}
const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function timeIt(n: number, fn: () => Promise<unknown>) {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: pct(ms, 50).toFixed(2), p99: pct(ms, 99).toFixed(2), max: ms[ms.length - 1]!.toFixed(2), n };
}

// The 1-million-row load statements outlast the default statement timeout on a busy machine.
process.env.DATABASE_STATEMENT_TIMEOUT_MS ??= "0";
const admin = postgres(BASE, { max: 1, onnotice: () => {} });
// BENCH_KEEP_DB=<name>: a database loaded once and kept, so later runs skip the load (each run's events are new).
const keep = process.env.BENCH_KEEP_DB;
const name = keep ?? `bench_tracking_${process.pid}_${Date.now()}`;
const reused = keep ? (await admin`select 1 from pg_database where datname = ${keep}`).length > 0 : false;
if (!reused) await admin.unsafe(`create database ${name}`);
const url = new URL(BASE);
url.pathname = `/${name}`;
const handle = await openDatabase({ url: url.toString() });
const run = Date.now().toString(36);
let stopServer: (() => void) | undefined;
try {
  await migrateDatabase(handle);
  const db = handle.db;
  const existing = reused
    ? rowsOf<{ id: string; account_id: string }>(
        await db.execute(sql`select id, account_id from domains where hostname = ${DOMAIN}`),
      )[0]
    : undefined;
  const account = existing
    ? { id: existing.account_id }
    : (await createAccount(db, { ownerEmail: "bench@example.com" })).account;
  const domain = existing ?? (await registerDomain(db, account.id, DOMAIN));

  // 1. Load the visits straight into the table (generate_series, no HTTP), then derive the rollups from them
  //    exactly as ingest keeps them. 85% bot visits over the sample bots, 15% AI-referred people (citations).
  const bots = SAMPLE_BOT_USER_AGENTS.map((ua) => {
    const c = classifyUserAgent(ua);
    if (c.kind !== "bot") throw new Error(`not a bot: ${ua}`);
    return { ua, ...c.bot };
  });
  const arr = (xs: (string | boolean)[]) => sql`${`{${xs.map((x) => JSON.stringify(String(x))).join(",")}}`}`;
  const botUa = arr(bots.map((b) => b.ua));
  const botName = arr(bots.map((b) => b.name));
  const botPurpose = arr(bots.map((b) => b.purpose));
  const botAi = arr(bots.map((b) => b.isAIBot));
  const engines = arr(["ChatGPT", "Perplexity", "Gemini", "Claude", "Copilot"]);
  const nb = bots.length;
  const t0 = performance.now();
  if (!existing) {
    // Oldest first within each sweep of the 90 days, as visits arrive: the time indexes take them as they would
    // have taken live traffic (packed leaf pages), not in the reverse order no site sends.
    for (let start = 1; start <= VISITS; start += LOAD_CHUNK) {
      const end = Math.min(VISITS, start + LOAD_CHUNK - 1);
      await db.execute(sql`
      insert into visits (domain_id, occurred_at, path, user_agent, ip, referrer, status, bot_name, bot_purpose,
                          is_ai_bot, verification, citation_engine, citation_reason, event_key, is_demo)
      select ${domain.id}::uuid,
             now() - ((${VISITS}::bigint - g) % 7776000) * interval '1 second',
             '/page/' || (g * 7919 % 5000),
             case when g % 100 < 85 then (${botUa}::text[])[1 + g % ${nb}] else 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0 Safari/537.36' end,
             null, case when g % 100 < 85 then null else 'https://chatgpt.com/' end, 200,
             case when g % 100 < 85 then (${botName}::text[])[1 + g % ${nb}] end,
             case when g % 100 < 85 then (${botPurpose}::text[])[1 + g % ${nb}] end,
             case when g % 100 < 85 then (${botAi}::text[])[1 + g % ${nb}]::boolean else false end,
             'unknown',
             case when g % 100 >= 85 then (${engines}::text[])[1 + g % 5] end,
             case when g % 100 >= 85 then 'referral' end,
             -- A computed event key, as ingest makes for an event sent without an id: its time, then a hash.
             't:' || lpad(to_hex(floor(extract(epoch from now() - ((${VISITS}::bigint - g) % 7776000) * interval '1 second') * 1000)::bigint), 12, '0')
               || ':' || substr(translate(encode(sha256(('bench:' || g)::bytea), 'base64'), '+/', '-_'), 1, 22),
             false
      from generate_series(${start}::bigint, ${end}::bigint) g`);
      log(`loaded ${end.toLocaleString("en")} visits`);
    }
    await db.execute(sql`
    insert into tracking_daily_bots (domain_id, day, bot_name, bot_purpose, is_ai_bot, visits)
    select domain_id, (occurred_at at time zone 'UTC')::date, bot_name, min(bot_purpose), bool_or(is_ai_bot), count(*)
    from visits where bot_name is not null group by 1, 2, 3`);
    await db.execute(sql`
    insert into tracking_page_counts (domain_id, path, visits)
    select domain_id, split_part(path, '?', 1), count(*) from visits where bot_name is not null group by 1, 2`);
    await db.execute(sql`
    insert into tracking_daily_citations (domain_id, day, engine, citations)
    select domain_id, (occurred_at at time zone 'UTC')::date, citation_engine, count(*)
    from visits where citation_engine is not null group by 1, 2, 3`);
    await db.execute(sql`vacuum analyze`);
  }
  const loadSeconds = (performance.now() - t0) / 1000;
  log(`loaded ${VISITS.toLocaleString("en")} visits and rollups in ${loadSeconds.toFixed(1)} s`);

  // 2. Ingest: batches of 1000 new events through the same service call as POST /tracking/events.
  const now = Date.now();
  const batches = Array.from({ length: INGEST_BATCHES }, (_, b) =>
    generateSampleVisits({ count: 1000, days: 80, now, seed: 1000 + b }).map((v, i) => ({
      id: `ingest-${run}-${b}-${i}`,
      domain: DOMAIN,
      path: v.path,
      userAgent: v.userAgent,
      referrer: v.referrer,
      status: v.status,
      timestamp: v.timestamp.toISOString(),
    })),
  );
  let stored = 0;
  const ti = performance.now();
  for (const events of batches) stored += (await ingestEvents(db, account.id, { events })).accepted;
  const ingestSeconds = (performance.now() - ti) / 1000;
  const tr = performance.now();
  const retried = batches.slice(0, 10);
  for (const events of retried) await ingestEvents(db, account.id, { events });
  const retrySeconds = (performance.now() - tr) / 1000;

  // 2b. The same over HTTP to the production server as `npm start` runs it (server.ts, the lean /api/v1 mount:
  //     key auth, rate limit, JSON parsing, envelope); 4 clients send batches of 1000 at once, after a warm-up.
  //     BENCH_CPU_PROF=<folder> writes the server's CPU profile there when it stops.
  const pair = await rotateKeyPair(db, account.id, { rateLimitPerMinute: 1_000_000_000 });
  ensureBuild();
  const app = await startServer(url.toString(), { DATABASE_STATEMENT_TIMEOUT_MS: "30000" });
  stopServer = app.kill;
  const rssAtStart = rssMb(app.pid);
  // Three shapes of traffic: "live", what a site's tracker sends, an id with each event (each event minutes old
  // when it arrives, and after every event sent before it); "computed", the same kind of traffic without ids, so
  // each event's key is computed from its time and fields and lands among the computed keys loaded above; and "spread", events falling on random
  // days of the last 80 (a backfill of old logs), which insert into random places of the time-ordered indexes
  // instead of their newest pages; and "wide", live traffic over a large site: each event on one of 50,000 pages,
  // so a batch upserts some 800 page counts and its citations are mostly first citations of their page that day
  // (the demo traffic the other shapes send visits a dozen pages).
  // The live shapes share one timeline that only moves forward, as one site's tracker sends: each batch's events
  // come after every event sent before it, by any shape, one millisecond apart, from 25 minutes before the HTTP runs
  // begin (1,260,000 events). Each shape used to start again 10 minutes before the bench began, so the shapes after
  // the first inserted their visits among the visits the earlier shapes had just stored.
  const liveStart = Date.now() - 1_500_000;
  let liveSent = 0;
  const httpBodies = (shape: "live" | "computed" | "spread" | "wide" | "warmup", batches = HTTP_BATCHES) => {
    const first = liveSent;
    if (shape !== "spread") liveSent += batches * 1000;
    return Array.from({ length: batches }, (_, b) =>
      JSON.stringify({
        events: generateSampleVisits({
          count: 1000,
          days: 80,
          now,
          seed: { spread: 5000, live: 9000, computed: 17000, wide: 21000, warmup: 13000 }[shape] + b,
        }).map((v, i) => ({
          ...(shape === "computed" ? {} : { id: `http-${shape}-${run}-${b}-${i}` }),
          domain: DOMAIN,
          path: shape === "wide" ? `/articles/${(b * 7919 + i * 104729) % 50000}` : v.path,
          userAgent: v.userAgent,
          referrer: v.referrer,
          status: v.status,
          timestamp: (shape === "spread"
            ? v.timestamp
            : new Date(liveStart + first + b * 1000 + i)
          ).toISOString(),
        })),
      }),
    );
  };
  // The load generator is undici's Pool (as bench:api's), four connections: fetch cost the bench about twice
  // the CPU per batch, taken from the same two cores as the server and Postgres.
  const pool = new Pool(app.origin, { connections: 4, pipelining: 1 });
  const postAll = async (bodies: string[]) => {
    let next = 0;
    let stored = 0;
    // Each run starts from a checkpoint: otherwise whether Postgres's checkpoint (and the full-page images in the
    // write-ahead log after it) fell inside a run or not moved its figures by a fifth from run to run.
    await db.execute(sql`checkpoint`);
    const cpu0 = { server: cpuSeconds(app.pid), postgres: postgresCpuSeconds(), bench: process.cpuUsage() };
    const t = performance.now();
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++]!;
          const res = await pool.request({
            path: "/api/v1/tracking/events",
            method: "POST",
            headers: {
              "content-type": "application/json",
              "x-api-key": pair.keyId,
              "x-api-secret": pair.secret,
            },
            body,
          });
          const json = (await res.body.json()) as { data?: { accepted: number } };
          if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${JSON.stringify(json)}`);
          stored += json.data?.accepted ?? 0;
        }
      }),
    );
    const seconds = (performance.now() - t) / 1000;
    const bench = process.cpuUsage(cpu0.bench);
    // CPU milliseconds per batch of 1000 events: where the two cores went.
    const perBatch = (s: number) => ((s * 1000) / bodies.length).toFixed(1);
    const cpu = {
      server: perBatch(cpuSeconds(app.pid) - cpu0.server),
      postgres: perBatch(postgresCpuSeconds() - cpu0.postgres),
      client: perBatch((bench.user + bench.system) / 1e6),
      wall: perBatch(seconds),
    };
    return { stored, eventsPerSecond: (bodies.length * 1000) / seconds, cpu };
  };
  // The server warms up first (its code compiled, its pools open, its heap grown to its working size) on batches of
  // their own, as bench:api warms up before it counts: a run's figures are the steady state.
  await postAll(httpBodies("warmup", HTTP_WARMUP_BATCHES));
  const live = await postAll(httpBodies("live"));
  const computed = await postAll(httpBodies("computed"));
  const spread = await postAll(httpBodies("spread"));
  const wide = await postAll(httpBodies("wide"));
  await pool.close();
  await new Promise((r) => setTimeout(r, 1000));
  const rss = rssMb(app.pid);

  // 3. Reads on the loaded table: uncached (the cache cleared before each call) and cached, twice: right after
  //    the ingest (Postgres still writing out what it stored: the checkpoint, the background writer), then
  //    after a CHECKPOINT, at rest. The bench's own garbage (the request bodies) is collected first, so its
  //    collection does not land in a read's time. The server stays up, idle, until the reads are done, as it
  //    would after a burst: stopped before them, its shutdown took the CPU of the first reads (113.8 and 57.5 ms,
  //    against 19.0 and 7.4 ms when they began two seconds after it was stopped).
  (globalThis as { gc?: () => void }).gc?.();
  const reads = async () => ({
    stats: await timeIt(READS, async () => {
      trackingReadCache.clear();
      await getBotStats(db, account.id, DOMAIN);
    }),
    citations: await timeIt(READS, async () => {
      trackingReadCache.clear();
      await getCitations(db, account.id, { domain: DOMAIN, days: 30, limit: 50 });
    }),
    citationsMax: await timeIt(READS, async () => {
      trackingReadCache.clear();
      await getCitations(db, account.id, { domain: DOMAIN, days: 90, limit: 200 });
    }),
    visits: await timeIt(READS, () => listBotVisits(db, account.id, { domain: DOMAIN, limit: 100 })),
    cached: await timeIt(READS, () => getBotStats(db, account.id, DOMAIN)),
  });
  const afterIngest = await reads();
  await db.execute(sql`checkpoint`);
  (globalThis as { gc?: () => void }).gc?.();
  const atRest = await reads();
  app.kill();
  stopServer = undefined;
  const stats = await getBotStats(db, account.id, DOMAIN);

  // The server's settings that move these figures: what the machine's Postgres runs with, not what the bench chose.
  const settings = rowsOf<{ name: string; setting: string; unit: string | null }>(
    await db.execute(sql`select name, setting, unit from pg_settings
      where name in ('server_version', 'shared_buffers', 'autovacuum', 'synchronous_commit', 'max_wal_size')
      order by name`),
  );
  console.log("\n## Tracking benchmark (Postgres)\n");
  console.log(
    `Postgres: ${settings.map((r) => `${r.name} ${r.setting}${r.unit ? ` (${r.unit})` : ""}`).join(", ")}`,
  );
  console.log(
    existing
      ? `visits: ${VISITS.toLocaleString("en")} loaded by an earlier run (${name} kept)`
      : `visits loaded: ${VISITS.toLocaleString("en")} (load + rollups ${loadSeconds.toFixed(1)} s)`,
  );
  console.log(`totalVisits read back: ${stats.totalVisits.toLocaleString("en")}`);
  console.log(
    `ingest: ${INGEST_BATCHES} batches × 1000 events: ${((INGEST_BATCHES * 1000) / ingestSeconds).toFixed(0)} events/s (${stored} stored, ${((ingestSeconds * 1000) / INGEST_BATCHES).toFixed(1)} ms/batch)`,
  );
  for (const [label, r] of [
    ["live traffic (forward in time: each event after every event sent before it)", live],
    ["live traffic without ids (keys computed from each event's time and fields)", computed],
    ["spread over 80 days (a backfill)", spread],
    ["live traffic over 50,000 pages (a large site)", wide],
  ] as const) {
    console.log(
      `ingest over HTTP (production server, 4 concurrent clients), ${label}: ${r.eventsPerSecond.toFixed(0)} events/s (${r.stored} stored; goal >= 60000: ${r.eventsPerSecond >= 60_000 ? "met" : "NOT met"})`,
    );
    console.log(
      `  CPU ms per batch of 1000: server ${r.cpu.server}, Postgres ${r.cpu.postgres}, bench client ${r.cpu.client} (wall ${r.cpu.wall} ms per batch, 4 in flight)`,
    );
  }
  console.log(
    `serving process RSS after the HTTP ingest: ${rss.toFixed(0)} MB (at start ${rssAtStart.toFixed(0)} MB; goal < 400 MB: ${rss < 400 ? "met" : "NOT met"})`,
  );
  console.log(
    `ingest retries (all duplicates): ${((retried.length * 1000) / retrySeconds).toFixed(0)} events/s`,
  );
  console.log(
    "| read | right after the ingest: p50 ms | p99 ms | max ms | after a checkpoint: p50 ms | p99 ms | max ms | n |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const [label, key] of [
    ["GET /tracking/stats (uncached)", "stats"],
    ["GET /citations days=30 limit=50 (uncached)", "citations"],
    ["GET /citations days=90 limit=200 (uncached)", "citationsMax"],
    ["GET /api/tracking/visits limit=100 (first page)", "visits"],
    ["GET /tracking/stats (cached)", "cached"],
  ] as const) {
    const [x, y] = [afterIngest[key], atRest[key]];
    console.log(`| ${label} | ${x.p50} | ${x.p99} | ${x.max} | ${y.p50} | ${y.p99} | ${y.max} | ${x.n} |`);
  }
} finally {
  stopServer?.();
  await handle.close();
  if (!keep) await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}
