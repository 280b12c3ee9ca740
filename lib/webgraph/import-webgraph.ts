import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/lib/db/client";
import { type WebgraphLevel, type WebgraphProgress, webgraphSnapshots } from "@/lib/db/schema";
import {
  DEFAULT_RANK_COLUMNS,
  parseEdge,
  parseRank,
  parseRankHeader,
  parseVertex,
  type RankColumns,
  type RankRow,
  type VertexRow,
  WebgraphFormatError,
} from "./parse";
import { readLines } from "./read-lines";

export interface ImportWebgraphOptions {
  /** The release's name, e.g. `cc-main-2024-25-dec-jan-feb`, and its date (YYYY-MM-DD). */
  snapshot: { name: string; takenOn: string };
  level: WebgraphLevel;
  verticesFile: string;
  edgesFile: string;
  ranksFile: string;
  /** Rows per committed batch (default 50 000). */
  batchSize?: number;
  onProgress?: (progress: WebgraphProgress & { phase: Phase }) => void;
  signal?: AbortSignal;
}

type Phase = keyof WebgraphProgress;

export interface ImportWebgraphResult {
  snapshotId: number;
  /** False when the snapshot was already complete and nothing was read. */
  imported: boolean;
  /** Lines read in this run per file (those skipped on resume not counted). */
  linesRead: WebgraphProgress;
  progress: WebgraphProgress;
  /** Milliseconds spent per file in this run, and on the closing in-degree count. */
  phaseMs: WebgraphProgress & { finish: number };
  elapsedMs: number;
}

const DEFAULT_BATCH = 50_000;

/**
 * Imports one level of a Common Crawl web graph release: vertices, ranks, then edges. Each batch is committed
 * with the count of lines consumed, so an interrupted import re-run with the same arguments resumes exactly
 * where it stopped and never writes a row twice.
 */
export async function importWebgraph(db: Db, opts: ImportWebgraphOptions): Promise<ImportWebgraphResult> {
  const started = Date.now();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(opts.snapshot.takenOn)) throw new Error("takenOn must be YYYY-MM-DD");
  const snapshot = await openSnapshot(db, opts);
  const progress = { ...snapshot.progress };
  const linesRead: WebgraphProgress = { vertices: 0, edges: 0, ranks: 0 };
  const phaseMs = { vertices: 0, edges: 0, ranks: 0, finish: 0 };
  if (snapshot.status === "ready") {
    return {
      snapshotId: snapshot.id,
      imported: false,
      linesRead,
      progress,
      phaseMs,
      elapsedMs: Date.now() - started,
    };
  }
  const batchSize = Math.max(1, opts.batchSize ?? DEFAULT_BATCH);
  const report = (phase: Phase) => opts.onProgress?.({ ...progress, phase });

  // Vertices and ranks first: a half-imported edge list is useless without them, the reverse is not.
  const partition = edgePartition(snapshot.id);
  // Unindexed and detached while it fills; indexed and attached in the closing transaction below.
  await db.execute(
    sql.raw(
      `create table if not exists ${partition} (snapshot_id integer not null check (snapshot_id = ${snapshot.id}), from_id bigint not null, to_id bigint not null)`,
    ),
  );
  for (const [phase, file] of [
    ["vertices", opts.verticesFile],
    ["ranks", opts.ranksFile],
    ["edges", opts.edgesFile],
  ] as const) {
    const began = Date.now();
    await importPhase(db, phase, file, snapshot.id, progress, linesRead, batchSize, opts, report);
    phaseMs[phase] = Date.now() - began;
  }

  const t = Date.now();
  // In-degrees once, at the end: bulk authority reads then cost an index lookup per domain, whatever the
  // domain's popularity. Re-run whole if interrupted (the snapshot only turns ready with it).
  await db.transaction(async (tx) => {
    // Building the index once over the whole partition is far cheaper than maintaining it row by row; with
    // room to sort in memory it avoids spilling millions of rows to disk, and so does the in-degree count.
    await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
    await tx.execute(sql`set local work_mem = '128MB'`);
    await tx.execute(
      sql.raw(`create index if not exists ${partition}_to_idx on ${partition} (snapshot_id, to_id, from_id)`),
    );
    const [attached] = rowsOf<{ n: number | string }>(
      await tx.execute(
        sql`select count(*) as n from pg_inherits where inhrelid = ${partition}::regclass and inhparent = 'webgraph_edges'::regclass`,
      ),
    );
    if (Number(attached?.n ?? 0) === 0) {
      await tx.execute(
        sql.raw(`alter table webgraph_edges attach partition ${partition} for values in (${snapshot.id})`),
      );
    }
    await tx.execute(sql`
      update webgraph_vertices v set in_degree = c.n
      from (select to_id, count(*) as n from webgraph_edges
            where snapshot_id = ${snapshot.id} and from_id <> to_id group by to_id) c
      where v.snapshot_id = ${snapshot.id} and v.vertex_id = c.to_id`);
    const [counted] = rowsOf<{ n: number | string }>(
      await tx.execute(sql`select count(*) as n from webgraph_ranks where snapshot_id = ${snapshot.id}`),
    );
    await tx
      .update(webgraphSnapshots)
      .set({ status: "ready", completedAt: new Date(), rankedCount: Number(counted?.n ?? 0) })
      .where(eq(webgraphSnapshots.id, snapshot.id));
  });
  // Fresh statistics, so the planner uses the indexes on tables that just grew by millions of rows.
  await db.execute(sql.raw(`analyze ${partition}, webgraph_vertices, webgraph_ranks`));
  phaseMs.finish = Date.now() - t;
  return {
    snapshotId: snapshot.id,
    imported: true,
    linesRead,
    progress,
    phaseMs,
    elapsedMs: Date.now() - started,
  };
}

async function openSnapshot(db: Db, opts: ImportWebgraphOptions) {
  await db
    .insert(webgraphSnapshots)
    .values({
      name: opts.snapshot.name,
      level: opts.level,
      takenOn: opts.snapshot.takenOn,
      progress: { vertices: 0, edges: 0, ranks: 0 },
    })
    .onConflictDoNothing();
  const [row] = await db
    .select()
    .from(webgraphSnapshots)
    .where(and(eq(webgraphSnapshots.name, opts.snapshot.name), eq(webgraphSnapshots.level, opts.level)));
  if (!row) throw new Error("webgraph snapshot row vanished");
  if (row.takenOn !== opts.snapshot.takenOn) {
    throw new Error(
      `snapshot ${row.name} was started with date ${row.takenOn}, not ${opts.snapshot.takenOn}`,
    );
  }
  return row;
}

async function importPhase(
  db: Db,
  phase: Phase,
  file: string,
  snapshotId: number,
  progress: WebgraphProgress,
  linesRead: WebgraphProgress,
  batchSize: number,
  opts: ImportWebgraphOptions,
  report: (phase: Phase) => void,
) {
  const skip = progress[phase];
  let lineNo = 0;
  let rankColumns: RankColumns = DEFAULT_RANK_COLUMNS;
  const vertices: VertexRow[] = [];
  const ranks: RankRow[] = [];
  const from: number[] = [];
  const to: number[] = [];
  const pending = () =>
    phase === "edges" ? from.length : phase === "ranks" ? ranks.length : vertices.length;

  const flush = async () => {
    await db.transaction(async (tx) => {
      // A crash may lose the last batches, but each batch and its progress go together, so a re-run redoes
      // exactly what was lost; not waiting for the WAL flush per batch is safe here and much faster.
      await tx.execute(sql`set local synchronous_commit = off`);
      if (phase === "edges") await insertEdges(tx, snapshotId, from, to);
      else if (phase === "ranks") await insertRanks(tx, snapshotId, ranks);
      else await insertVertices(tx, snapshotId, vertices);
      await tx.execute(
        sql`update webgraph_snapshots set progress = jsonb_set(progress, ${`{${phase}}`}::text[], to_jsonb(${lineNo}::bigint)) where id = ${snapshotId}`,
      );
    });
    progress[phase] = lineNo;
    vertices.length = 0;
    ranks.length = 0;
    from.length = 0;
    to.length = 0;
    report(phase);
  };

  for await (const line of readLines(file)) {
    lineNo++;
    // The header is re-read on resume: the column layout is needed whatever line we continue from.
    if (phase === "ranks" && lineNo === 1 && line.startsWith("#")) {
      const header = parseRankHeader(line);
      if (typeof header === "string") throw new WebgraphFormatError(file, lineNo, header);
      rankColumns = header;
      continue;
    }
    if (lineNo <= skip) continue;
    linesRead[phase]++;
    if (line === "" || line.startsWith("#")) continue;
    if (phase === "edges") {
      const edge = parseEdge(line);
      if (typeof edge === "string") throw new WebgraphFormatError(file, lineNo, edge);
      from.push(edge[0]);
      to.push(edge[1]);
    } else if (phase === "ranks") {
      const rank = parseRank(line, rankColumns);
      if (typeof rank === "string") throw new WebgraphFormatError(file, lineNo, rank);
      ranks.push(rank);
    } else {
      const vertex = parseVertex(line);
      if (typeof vertex === "string") throw new WebgraphFormatError(file, lineNo, vertex);
      vertices.push(vertex);
    }
    if (pending() >= batchSize) {
      opts.signal?.throwIfAborted();
      await flush();
    }
  }
  if (pending() > 0 || lineNo > progress[phase]) await flush();
}

// One statement per batch: numbers travel as array literals, text as JSON, so the statement's parameter
// count stays fixed whatever the batch size.
/** The table holding one snapshot's edges: a partition of webgraph_edges. */
export function edgePartition(snapshotId: number): string {
  if (!Number.isSafeInteger(snapshotId) || snapshotId <= 0) throw new Error("bad snapshot id");
  return `webgraph_edges_s${snapshotId}`;
}

async function insertEdges(tx: DbOrTx, snapshotId: number, from: number[], to: number[]) {
  await tx.execute(
    sql`insert into ${sql.raw(edgePartition(snapshotId))} (snapshot_id, from_id, to_id)
        select ${snapshotId}, f, t from unnest(${`{${from.join(",")}}`}::bigint[], ${`{${to.join(",")}}`}::bigint[]) as u(f, t)`,
  );
}

async function insertVertices(tx: DbOrTx, snapshotId: number, rows: VertexRow[]) {
  await tx.execute(
    sql`insert into webgraph_vertices (snapshot_id, vertex_id, rev_host)
        select ${snapshotId}, x.id, x.h from json_to_recordset(${JSON.stringify(rows.map((r) => ({ id: r.id, h: r.revHost })))}::json) as x(id bigint, h text)`,
  );
}

async function insertRanks(tx: DbOrTx, snapshotId: number, rows: RankRow[]) {
  const json = JSON.stringify(
    rows.map((r) => ({
      h: r.revHost,
      hp: r.harmonicPos,
      hv: r.harmonicVal,
      pp: r.pagerankPos,
      pv: r.pagerankVal,
      n: r.hostCount,
    })),
  );
  await tx.execute(
    sql`insert into webgraph_ranks (snapshot_id, rev_host, harmonic_pos, harmonic_val, pagerank_pos, pagerank_val, host_count)
        select ${snapshotId}, x.h, x.hp, x.hv, x.pp, x.pv, x.n
        from json_to_recordset(${json}::json) as x(h text, hp bigint, hv double precision, pp bigint, pv double precision, n bigint)`,
  );
}

/** postgres.js returns the rows array itself, PGlite an object with `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
