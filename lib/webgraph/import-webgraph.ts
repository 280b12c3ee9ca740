import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { type CopyQuery, copyIn } from "@/lib/db/copy-in";
import { isDataException } from "@/lib/db/errors";
import { type WebgraphLevel, type WebgraphProgress, webgraphSnapshots } from "@/lib/db/schema";
import { WebgraphFormatError } from "./parse";
import { type GraphFile, InDegreeCounter, type ScanBatch, scanGraphFile } from "./scan";

export interface ImportWebgraphOptions {
  /** The release's name, e.g. `cc-main-2024-25-dec-jan-feb`, and its date (YYYY-MM-DD). */
  snapshot: { name: string; takenOn: string };
  level: WebgraphLevel;
  verticesFile: string;
  edgesFile: string;
  ranksFile: string;
  /** Rows per committed batch (default 500 000). */
  batchSize?: number;
  onProgress?: (progress: WebgraphProgress & { phase: Phase }) => void;
  signal?: AbortSignal;
}

type Phase = keyof WebgraphProgress;

/**
 * The closing steps, in milliseconds. On Postgres the edge index is built beside the vertices and ranks
 * files as they load (it starts once the edge file is in), and the other steps beside it.
 */
interface FinishMs {
  /** The snapshot's edge index, built once over the loaded partition. */
  index: number;
  /**
   * The vertices partition, filled from staging with the in-degrees counted while the edge file streamed by
   * (or, when the edges were loaded over several runs, in one pass over the edge partition), and indexed.
   */
  vertices: number;
  /** The ranks partition's primary key. */
  ranks: number;
  analyze: number;
  /** Attaching the partitions and marking the snapshot ready. */
  attach: number;
}

export interface ImportWebgraphResult {
  snapshotId: number;
  /** False when the snapshot was already complete and nothing was read. */
  imported: boolean;
  /** Lines read in this run per file (those skipped on resume not counted). */
  linesRead: WebgraphProgress;
  progress: WebgraphProgress;
  /** Milliseconds spent per file in this run, and on the closing steps together. */
  phaseMs: WebgraphProgress & { finish: number };
  finishMs: FinishMs;
  /** How the rows travelled: COPY (Postgres, PGlite in this process), else one INSERT per batch of the same text. */
  method: "copy" | "insert";
  elapsedMs: number;
}

const DEFAULT_BATCH = 500_000;
/** The vertices partition's in_degree until counted. */
const UNCOUNTED = -1;

/**
 * Imports one level of a Common Crawl web graph release: edges, vertices, then ranks. Each batch is committed
 * with the count of lines consumed, so an interrupted import re-run with the same arguments resumes exactly
 * where it stopped and never writes a row twice.
 *
 * Every file streams into a table of its own with no index, foreign key or trigger: vertices into a staging
 * table, ranks and edges straight into the snapshot's partitions (`snapshot_id` a column default, so an edge
 * line is copied as it is). On Postgres the batches travel by COPY, and the edge index is built while the
 * vertices and ranks load. The in-degrees are counted as the edge file streams by. The closing steps then fill
 * the vertices partition with them, index vertices and ranks by sorting, analyze, and attach the three partitions in the transaction that marks the snapshot ready: their CHECK
 * constraints spare the attach a scan, and the foreign keys are checked in one query each.
 */
export async function importWebgraph(db: Db, opts: ImportWebgraphOptions): Promise<ImportWebgraphResult> {
  const started = Date.now();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(opts.snapshot.takenOn)) throw new Error("takenOn must be YYYY-MM-DD");
  const snapshot = await openSnapshot(db, opts);
  const progress = { ...snapshot.progress };
  const linesRead: WebgraphProgress = { vertices: 0, edges: 0, ranks: 0 };
  const phaseMs = { vertices: 0, edges: 0, ranks: 0, finish: 0 };
  const finishMs: FinishMs = { index: 0, vertices: 0, ranks: 0, analyze: 0, attach: 0 };
  const store = await openStore(db);
  const result = () => ({
    snapshotId: snapshot.id,
    linesRead,
    progress,
    phaseMs,
    finishMs,
    method: store.method,
    elapsedMs: Date.now() - started,
  });
  if (snapshot.status === "ready") return { ...result(), imported: false };
  const batchSize = Math.max(1, opts.batchSize ?? DEFAULT_BATCH);
  const report = (phase: Phase) => opts.onProgress?.({ ...progress, phase });

  const id = snapshot.id;
  const tables = targets(id);
  // In-degrees are counted as the edges stream by when this run reads the whole edge file; a resumed one
  // leaves them to the database.
  const inDegrees = progress.edges === 0 ? new InDegreeCounter() : null;
  // Autovacuum would only compete with the load; the closing steps analyze once.
  await store.tx(async (run) => {
    await run(
      `create table if not exists ${tables.edges.table} (snapshot_id integer not null default ${id} check (snapshot_id = ${id}), from_id bigint not null, to_id bigint not null) with (autovacuum_enabled = false)`,
    );
    // A partition begun before the column had its default.
    await run(`alter table ${tables.edges.table} alter column snapshot_id set default ${id}`);
    // in_degree -1: not yet counted (rows loaded by a run that did not read the whole edge file).
    await run(
      `create table if not exists ${tables.vertices.table} (snapshot_id integer not null default ${id} check (snapshot_id = ${id}), vertex_id bigint not null, rev_host text not null, in_degree integer not null default ${UNCOUNTED}) with (autovacuum_enabled = false)`,
    );
    await run(
      `create table if not exists ${tables.ranks.table} (snapshot_id integer not null default ${id} check (snapshot_id = ${id}), rev_host text not null, harmonic_pos bigint not null, harmonic_val double precision not null, pagerank_pos bigint not null, pagerank_val double precision not null, host_count bigint) with (autovacuum_enabled = false)`,
    );
  });

  // Edges first: on Postgres their index, the longest closing step, is then built on a connection of its own
  // while the vertices and ranks load. (The snapshot is of no use before it is ready, whatever the order.)
  let indexing: Promise<void> | null = null;
  try {
    for (const [phase, file] of [
      ["edges", opts.edgesFile],
      ["vertices", opts.verticesFile],
      ["ranks", opts.ranksFile],
    ] as const) {
      const began = Date.now();
      // The edge file's counter while it is read; the vertex lines then take their counts from it.
      const counter = phase === "ranks" || !inDegrees?.counts ? undefined : inDegrees;
      const target =
        phase === "vertices" && counter
          ? { ...tables.vertices, columns: [...tables.vertices.columns, "in_degree"] }
          : tables[phase];
      await importPhase(
        store,
        target,
        phase,
        file,
        id,
        progress,
        linesRead,
        batchSize,
        opts,
        report,
        counter,
      );
      phaseMs[phase] = Date.now() - began;
      if (phase === "edges" && store.parallel) {
        indexing = buildEdgeIndex(store, tables.edges.table, finishMs);
        // Awaited below; a failure meanwhile is not an unhandled rejection.
        indexing.catch(() => {});
      }
    }
  } catch (err) {
    // Not left building behind the caller's back (it may close the connections next).
    await (indexing as Promise<void> | null)?.catch(() => {});
    throw err;
  }

  const t = Date.now();
  await finishSnapshot(store, id, tables, finishMs, indexing);
  // Counted from the end of the ranks file: the index build that ran beside the files is in `finishMs.index`.
  phaseMs.finish = Date.now() - t;
  return { ...result(), imported: true };
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

/** Where a file's rows go during the import, in the column order of the scanner's COPY text. */
interface Target {
  table: string;
  columns: readonly string[];
  types: readonly string[];
}

/** The table holding one snapshot's edges: a partition of webgraph_edges. */
export function edgePartition(snapshotId: number): string {
  if (!Number.isSafeInteger(snapshotId) || snapshotId <= 0) throw new Error("bad snapshot id");
  return `webgraph_edges_s${snapshotId}`;
}

function targets(snapshotId: number): Record<Phase, Target> {
  const edges = edgePartition(snapshotId);
  return {
    vertices: {
      table: `webgraph_vertices_s${snapshotId}`,
      columns: ["vertex_id", "rev_host"],
      types: ["bigint", "text", "integer"],
    },
    edges: { table: edges, columns: ["from_id", "to_id"], types: ["bigint", "bigint"] },
    ranks: {
      table: `webgraph_ranks_s${snapshotId}`,
      columns: ["harmonic_pos", "harmonic_val", "pagerank_pos", "pagerank_val", "rev_host", "host_count"],
      types: ["bigint", "double precision", "bigint", "double precision", "text", "bigint"],
    },
  };
}

type Run = (text: string) => Promise<Record<string, unknown>[]>;
/** Rows in COPY text into a table, inside the transaction. */
type Copy = (target: Target, chunks: Iterable<Buffer>) => Promise<void>;

interface Store {
  method: "copy" | "insert";
  /** Independent closing steps may run at once, on connections of their own. */
  parallel: boolean;
  /** Sort and hash memory of the closing steps: PGlite's 32-bit heap is far smaller than a server's. */
  memory: { sort: string; hash: string };
  /** Runs `fn` in one transaction, with no statement time limit (an index over billions of rows takes long). */
  tx<T>(fn: (run: Run, copy: Copy) => Promise<T>): Promise<T>;
}

/** One batch and its progress, committed together. */
function load(store: Store, target: Target, batch: ScanBatch, progressSql: string): Promise<void> {
  return store.tx(async (run, copy) => {
    // A crash may lose the last batches, but each batch and its progress go together, so a re-run redoes
    // exactly what was lost; not waiting for the WAL flush per batch is safe here and much faster.
    await run("set local synchronous_commit = off");
    if (batch.rows > 0) await copy(target, batch.chunks);
    await run(progressSql);
  });
}

interface PostgresJs {
  begin<T>(fn: (tx: PostgresJsTx) => Promise<T>): Promise<T>;
  unsafe(text: string): Promise<Record<string, unknown>[]>;
}
interface PostgresJsTx {
  unsafe(text: string): Promise<Record<string, unknown>[]> & CopyQuery;
}

/** COPY: over postgres.js to Postgres, from a blob to PGlite in this process; batched INSERTs to PGlite served over a socket. */
async function openStore(db: Db): Promise<Store> {
  const client = (db as unknown as { $client?: unknown }).$client;
  // postgres.js is a tagged-template function; PGlite an object.
  if (typeof client === "function" && typeof (client as Partial<PostgresJs>).begin === "function") {
    const pg = client as unknown as PostgresJs;
    const [row] = await pg.unsafe("select version() as v");
    // PGlite served over a socket speaks the protocol but takes no COPY from the client.
    if (!/emscripten|wasm/i.test(String(row?.v ?? ""))) return postgresStore(pg);
  }
  if (
    client &&
    typeof client === "object" &&
    typeof (client as Partial<PgliteLike>).transaction === "function"
  ) {
    return pgliteStore(client as PgliteLike);
  }
  return insertStore(db);
}

interface PgliteTx {
  query(text: string, params?: unknown[], options?: { blob?: Blob }): Promise<{ rows: unknown[] }>;
}
interface PgliteLike {
  transaction<T>(fn: (tx: PgliteTx) => Promise<T>): Promise<T>;
}

/** PGlite in this process: COPY from a blob handed over in memory. */
function pgliteStore(client: PgliteLike): Store {
  return {
    method: "copy",
    parallel: false,
    memory: { sort: "256MB", hash: "128MB" },
    tx: (fn) =>
      client.transaction((tx) =>
        fn(
          async (text) => (await tx.query(text)).rows as Record<string, unknown>[],
          async (target, chunks) => {
            await tx.query(`copy ${target.table} (${target.columns.join(", ")}) from '/dev/blob'`, [], {
              blob: new Blob([...chunks] as unknown as BlobPart[]),
            });
          },
        ),
      ),
  };
}

function postgresStore(client: PostgresJs): Store {
  return {
    method: "copy",
    parallel: true,
    memory: { sort: "1GB", hash: "512MB" },
    tx: (fn) =>
      client.begin(async (tx) => {
        await tx.unsafe("set local statement_timeout = 0");
        return fn(
          (text) => tx.unsafe(text),
          async (target, chunks) => {
            await copyIn(tx, `copy ${target.table} (${target.columns.join(", ")}) from stdin`, chunks);
          },
        );
      }),
  };
}

function insertStore(db: Db): Store {
  return {
    method: "insert",
    parallel: false,
    memory: { sort: "256MB", hash: "128MB" },
    tx: (fn) =>
      db.transaction(async (tx) =>
        fn(
          async (text) => rowsOf(await tx.execute(sql.raw(text))),
          async (target, chunks) => {
            // The COPY text as one parameter, split into lines and columns by the database.
            const columns = target.types.map(
              (type, i) => `nullif(split_part(l, E'\\t', ${i + 1}), '\\N')::${type}`,
            );
            const text = Buffer.concat([...chunks]).toString("utf8");
            await tx.execute(
              sql`insert into ${sql.raw(target.table)} (${sql.raw(target.columns.join(", "))})
                select ${sql.raw(columns.join(", "))} from string_to_table(${text}, E'\\n') as l where l <> ''`,
            );
          },
        ),
      ),
  };
}

async function importPhase(
  store: Store,
  target: Target,
  phase: Phase,
  file: string,
  snapshotId: number,
  progress: WebgraphProgress,
  linesRead: WebgraphProgress,
  batchSize: number,
  opts: ImportWebgraphOptions,
  report: (phase: Phase) => void,
  inDegrees?: InDegreeCounter,
) {
  const batches = scanGraphFile(file, phase as GraphFile, { skip: progress[phase], batchSize, inDegrees });
  // The next batch is read and checked while the database takes this one.
  let ahead = batches.next();
  ahead.catch(() => {});
  try {
    for (;;) {
      const next = await ahead;
      if (next.done) break;
      const batch = next.value;
      ahead = batches.next();
      ahead.catch(() => {});
      linesRead[phase] = batch.linesRead;
      if (batch.rows === 0 && batch.lineNo <= progress[phase]) continue;
      opts.signal?.throwIfAborted();
      try {
        await load(
          store,
          target,
          batch,
          `update webgraph_snapshots set progress = jsonb_set(progress, '{${phase}}', to_jsonb(${batch.lineNo}::bigint)) where id = ${snapshotId}`,
        );
      } catch (err) {
        // The scanner checks what it can; a value it let through that the database refuses (a number out of
        // range, say) is a data exception (SQLSTATE class 22), reported against the batch's lines.
        if (isDataException(err)) {
          const first = progress[phase] + 1;
          throw new WebgraphFormatError(
            file,
            first,
            `a value in lines ${first}–${batch.lineNo} was refused: ${(err as Error).message}`,
          );
        }
        throw err;
      }
      progress[phase] = batch.lineNo;
      report(phase);
    }
  } finally {
    await ahead.catch(() => {});
    await batches.return(undefined);
  }
}

async function finishSnapshot(
  store: Store,
  id: number,
  tables: Record<Phase, Target>,
  ms: FinishMs,
  indexing: Promise<void> | null,
) {
  const edges = tables.edges.table;
  const vertexPartition = tables.vertices.table;
  const timed = async (step: keyof FinishMs, fn: () => Promise<unknown>) => {
    const t = Date.now();
    await fn();
    ms[step] = Date.now() - t;
  };
  const exists = async (run: Run, table: string) =>
    (await run(`select to_regclass('${table}') is not null as ok`))[0]?.ok === true;

  const index = () => buildEdgeIndex(store, edges, ms);
  // In-degrees once, at import: bulk authority reads then cost an index lookup per domain, whatever the
  // domain's popularity. Counted while the edge file streamed by, they came in with the vertex lines; rows
  // loaded by a run that did not read the whole edge file are counted here in one pass over the edges. The
  // partition's keys come in the same transaction, so a re-run after an interruption skips what was done.
  const vertices = () =>
    timed("vertices", () =>
      store.tx(async (run) => {
        const [keyed] = await run(
          `select count(*)::integer as n from pg_constraint where conrelid = '${vertexPartition}'::regclass and contype = 'p'`,
        );
        if (Number(keyed?.n ?? 0) > 0) return;
        await run(`set local work_mem = '${store.memory.hash}'`);
        await run(`set local maintenance_work_mem = '${store.memory.sort}'`);
        // Vertices staged by an import begun before they loaded straight into their partition.
        const staged = `webgraph_vertices_stage_s${id}`;
        if (await exists(run, staged)) {
          await run(
            `insert into ${vertexPartition} (vertex_id, rev_host) select vertex_id, rev_host from ${staged}`,
          );
          await run(`drop table ${staged}`);
        }
        const [uncounted] = await run(
          `select exists (select from ${vertexPartition} where in_degree = ${UNCOUNTED}) as any`,
        );
        if (uncounted?.any === true) {
          await run(`update ${vertexPartition} v set in_degree = c.n
            from (select to_id, count(*)::integer as n from ${edges} where from_id <> to_id group by to_id) c
            where c.to_id = v.vertex_id and v.in_degree = ${UNCOUNTED}`);
          await run(`update ${vertexPartition} set in_degree = 0 where in_degree = ${UNCOUNTED}`);
        }
        await run(`alter table ${vertexPartition} alter column in_degree set default 0`);
        // The same keys as the parent's, so attaching adopts them instead of building its own.
        await run(
          `alter table ${vertexPartition} add constraint ${vertexPartition}_pk primary key (snapshot_id, vertex_id)`,
        );
        await run(
          `create unique index ${vertexPartition}_rev_host on ${vertexPartition} (snapshot_id, rev_host)`,
        );
      }),
    );
  const rankPartition = tables.ranks.table;
  const ranks = () =>
    timed("ranks", () =>
      store.tx(async (run) => {
        const [keyed] = await run(
          `select count(*)::integer as n from pg_constraint where conrelid = '${rankPartition}'::regclass and contype = 'p'`,
        );
        if (Number(keyed?.n ?? 0) > 0) return;
        await run(`set local maintenance_work_mem = '${store.memory.sort}'`);
        await run(
          `alter table ${rankPartition} add constraint ${rankPartition}_pk primary key (snapshot_id, rev_host)`,
        );
      }),
    );
  if (store.parallel) await Promise.all([indexing ?? index(), vertices().then(ranks)]);
  else {
    await index();
    await vertices();
    await ranks();
  }
  // Fresh statistics once, so the planner uses the indexes on tables that just grew by millions of rows.
  await timed("analyze", () =>
    store.tx((run) => run(`analyze ${edges}, ${vertexPartition}, ${rankPartition}`)),
  );
  await timed("attach", () =>
    store.tx(async (run) => {
      for (const [partition, parent] of [
        [vertexPartition, "webgraph_vertices"],
        [rankPartition, "webgraph_ranks"],
        [edges, "webgraph_edges"],
      ]) {
        const [attached] = await run(
          `select count(*)::integer as n from pg_inherits where inhrelid = '${partition}'::regclass and inhparent = '${parent}'::regclass`,
        );
        if (Number(attached?.n ?? 0) > 0) continue;
        await run(`alter table ${partition} reset (autovacuum_enabled)`);
        // The partition's CHECK (snapshot_id = id) proves the bound, so attaching reads no rows for it; its
        // indexes match the parent's and become their partitions.
        await run(`alter table ${parent} attach partition ${partition} for values in (${id})`);
      }
      const [counted] = await run(`select count(*) as n from ${rankPartition}`);
      await run(
        `update webgraph_snapshots set status = 'ready', completed_at = now(), ranked_count = ${Number(counted?.n ?? 0)} where id = ${id}`,
      );
    }),
  );
}

/**
 * Building the index once over the whole partition is far cheaper than maintaining it row by row; with room to
 * sort in memory it avoids spilling to disk. Postgres adds parallel workers to the build where it can.
 */
async function buildEdgeIndex(store: Store, edges: string, ms: FinishMs) {
  const t = Date.now();
  await store.tx(async (run) => {
    await run(`set local maintenance_work_mem = '${store.memory.sort}'`);
    await run(`create index if not exists ${edges}_to_idx on ${edges} (to_id, from_id)`);
  });
  ms.index = Date.now() - t;
}

/** postgres.js returns the rows array itself, PGlite an object with `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
