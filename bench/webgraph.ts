// npm run bench:webgraph: import rate (edges/s) of a synthetic graph in Common Crawl's file format and the
// latency of domain authority for 100 domains, on PGlite and on a throwaway Postgres database.
//   BENCH_WEBGRAPH_EDGES (default 10000000; vertices are a tenth of it)
//   BENCH_WEBGRAPH_DB: pglite, postgres or both (default both)
//   BENCH_DATABASE_URL / DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres)
//   BENCH_READS (default 200)
//   BENCH_WEBGRAPH_FILES: a folder to keep the generated files in and reuse on the next run of the same size

import { once } from "node:events";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createGzip } from "node:zlib";
import postgres from "postgres";
import { type DbHandle, migrateDatabase, openDatabase } from "@/lib/db/client";
import { importWebgraph } from "@/lib/webgraph/import-webgraph";
import { domainAuthority } from "@/lib/webgraph/queries";

const EDGES = Number(process.env.BENCH_WEBGRAPH_EDGES ?? 10_000_000);
const VERTICES = Math.max(100, Math.floor(EDGES / 10));
const WHICH = process.env.BENCH_WEBGRAPH_DB ?? "both";
const BASE =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const READS = Number(process.env.BENCH_READS ?? 200);

const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** mulberry32: a seeded generator, so every run benchmarks the same graph. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const revHost = (i: number) => `com.site${String(i).padStart(8, "0")}`;

async function writeGz(file: string, lines: () => Generator<string>) {
  const gz = createGzip({ level: 1 });
  const out = createWriteStream(file);
  gz.pipe(out);
  let chunk = "";
  for (const line of lines()) {
    chunk += line;
    if (chunk.length > 1 << 16) {
      if (!gz.write(chunk)) await once(gz, "drain");
      chunk = "";
    }
  }
  gz.end(chunk);
  await once(out, "finish");
}

/** A skewed graph like the web's: low ids collect most links (in-degree follows a power law). */
async function generateGraph(dir: string) {
  const rnd = random(42);
  const files = {
    verticesFile: path.join(dir, `vertices-${EDGES}.txt.gz`),
    edgesFile: path.join(dir, `edges-${EDGES}.txt.gz`),
    ranksFile: path.join(dir, `ranks-${EDGES}.txt.gz`),
  };
  if (Object.values(files).every((f) => existsSync(f))) return files;
  await writeGz(files.verticesFile, function* () {
    for (let i = 0; i < VERTICES; i++) yield `${i}\t${revHost(i)}\t1\n`;
  });
  await writeGz(files.edgesFile, function* () {
    const perVertex = EDGES / VERTICES;
    let written = 0;
    for (let from = 0; from < VERTICES && written < EDGES; from++) {
      const n = from === VERTICES - 1 ? EDGES - written : Math.min(EDGES - written, Math.round(perVertex));
      for (let k = 0; k < n; k++) yield `${from}\t${Math.floor(VERTICES * rnd() ** 3)}\n`;
      written += n;
    }
  });
  await writeGz(files.ranksFile, function* () {
    yield "#harmonicc_pos\t#harmonicc_val\t#pr_pos\t#pr_val\t#host_rev\t#n_hosts\n";
    for (let i = 0; i < VERTICES; i++) {
      const pr = Math.min(VERTICES, Math.max(1, i + 1 + Math.round((rnd() - 0.5) * 10)));
      yield `${i + 1}\t${(VERTICES - i) * 10}.0\t${pr}\t${1 / (i + 2)}\t${revHost(i)}\t1\n`;
    }
  });
  return files;
}

async function benchOn(label: string, handle: DbHandle, files: Awaited<ReturnType<typeof generateGraph>>) {
  await migrateDatabase(handle);
  log(`${label}: importing ${EDGES.toLocaleString()} edges, ${VERTICES.toLocaleString()} vertices`);
  const result = await importWebgraph(handle.db, {
    snapshot: { name: "bench", takenOn: "2025-08-31" },
    level: "domain",
    ...files,
  });
  const total = result.elapsedMs / 1000;
  const edgeRate = Math.round((EDGES * 1000) / Math.max(1, result.phaseMs.edges));
  const overall = Math.round(EDGES / total);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  log(`${label}: import by ${result.method}, ${s(result.elapsedMs)} end to end`);
  log(`${label}:   edges file     ${s(result.phaseMs.edges)} (${edgeRate.toLocaleString()} edges/s)`);
  log(`${label}:   vertices file  ${s(result.phaseMs.vertices)}`);
  log(`${label}:   ranks file     ${s(result.phaseMs.ranks)}`);
  log(
    `${label}:   closing steps  ${s(result.phaseMs.finish)} (edge index ${s(result.finishMs.index)}${label === "postgres" ? ", begun beside the vertices and ranks files;" : ", then"} vertices with in-degrees ${s(result.finishMs.vertices)}, ranks ${s(result.finishMs.ranks)}; analyze ${s(result.finishMs.analyze)}, attach ${s(result.finishMs.attach)})`,
  );
  log(
    `${label}: ${overall.toLocaleString()} edges/s end to end (goal ≥ 200,000: ${overall >= 200_000 ? "met" : "missed"})`,
  );

  const rnd = random(7);
  const ms: number[] = [];
  for (let i = 0; i < READS; i++) {
    // Half popular domains (large in-degree), half from the long tail.
    const domains = Array.from(
      { length: 100 },
      (_, k) =>
        `site${String(k % 2 ? Math.floor(rnd() * 1000) : Math.floor(rnd() * VERTICES)).padStart(8, "0")}.com`,
    );
    const t = performance.now();
    const r = await domainAuthority(handle.db, { domains });
    ms.push(performance.now() - t);
    if (r.domains.length !== 100) throw new Error("short answer");
  }
  ms.sort((a, b) => a - b);
  log(
    `${label}: authority of 100 domains over ${READS} reads: p50 ${pct(ms, 50).toFixed(1)} ms, p99 ${pct(ms, 99).toFixed(1)} ms`,
  );
  return {
    method: result.method,
    edgesPerSecond: overall,
    edgesFileEdgesPerSecond: edgeRate,
    phaseMs: result.phaseMs,
    finishMs: result.finishMs,
    p50: pct(ms, 50),
    p99: pct(ms, 99),
  };
}

async function main() {
  const keep = process.env.BENCH_WEBGRAPH_FILES;
  if (keep) mkdirSync(keep, { recursive: true });
  const dir = keep ?? mkdtempSync(path.join(tmpdir(), "bench-webgraph-"));
  const figures: Record<string, unknown> = {};
  try {
    log(`generating a graph of ${EDGES.toLocaleString()} edges in ${dir}`);
    const files = await generateGraph(dir);
    if (WHICH === "pglite" || WHICH === "both") {
      const handle = await openDatabase({ url: "", dataDir: "memory://" });
      try {
        figures.pglite = await benchOn("pglite", handle, files);
      } finally {
        await handle.close();
      }
    }
    if (WHICH === "postgres" || WHICH === "both") {
      const name = `bench_webgraph_${process.pid}`;
      const admin = postgres(BASE, { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      const url = new URL(BASE);
      url.pathname = `/${name}`;
      const handle = await openDatabase({ url: url.href });
      try {
        figures.postgres = await benchOn("postgres", handle, files);
      } finally {
        await handle.close();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    }
    console.log(
      JSON.stringify(
        { edges: EDGES, vertices: VERTICES, goal: { edgesPerSecond: 200_000, p99Ms: 100 }, ...figures },
        null,
        2,
      ),
    );
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
