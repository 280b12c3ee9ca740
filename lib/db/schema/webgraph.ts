import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

export const WEBGRAPH_LEVELS = ["host", "domain"] as const;
export type WebgraphLevel = (typeof WEBGRAPH_LEVELS)[number];
export const WEBGRAPH_SNAPSHOT_STATUSES = ["importing", "ready"] as const;

/** Lines of each input file already committed; a re-run of the import skips them and carries on. */
export interface WebgraphProgress {
  vertices: number;
  edges: number;
  ranks: number;
}

/**
 * One imported release of Common Crawl's web graph at one level (e.g. `cc-main-2024-25-dec-jan-feb`, domain).
 * Vertex ids are the release's own, so every other webgraph row is scoped by its snapshot.
 */
export const webgraphSnapshots = pgTable(
  "webgraph_snapshots",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    level: text("level", { enum: WEBGRAPH_LEVELS }).notNull(),
    /** The release's date (its last crawl month); history is ordered by it. */
    takenOn: date("taken_on", { mode: "string" }).notNull(),
    status: text("status", { enum: WEBGRAPH_SNAPSHOT_STATUSES }).notNull().default("importing"),
    progress: jsonb("progress").$type<WebgraphProgress>().notNull(),
    /** Rows of the ranks file: the denominator of the authority score's rank scale. */
    rankedCount: bigint("ranked_count", { mode: "number" }).notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("webgraph_snapshots_name_level_unique").on(t.name, t.level),
    index("webgraph_snapshots_ready_idx").on(t.level, t.takenOn.desc()).where(sql`${t.status} = 'ready'`),
    check("webgraph_snapshots_level_valid", sql`${t.level} in ('host', 'domain')`),
    check("webgraph_snapshots_status_valid", sql`${t.status} in ('importing', 'ready')`),
    check(
      "webgraph_snapshots_ready_completed",
      sql`(${t.status} = 'ready') = (${t.completedAt} is not null)`,
    ),
  ],
);

/** A host (or registered domain) in reversed notation, `com.example.www`, with its id in the release. */
export const webgraphVertices = pgTable(
  "webgraph_vertices",
  {
    snapshotId: integer("snapshot_id")
      .notNull()
      .references(() => webgraphSnapshots.id, { onDelete: "cascade" }),
    vertexId: bigint("vertex_id", { mode: "number" }).notNull(),
    revHost: text("rev_host").notNull(),
    /** Other vertices linking here (self-links left out); counted at import as the edge file streams by. */
    inDegree: integer("in_degree").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.snapshotId, t.vertexId] }),
    uniqueIndex("webgraph_vertices_rev_host_unique").on(t.snapshotId, t.revHost),
  ],
);

/**
 * A link between two vertices of a release. The SQL table is partitioned by snapshot (see the migration): an
 * import fills its own partition without indexes or foreign-key triggers, then indexes and attaches it, which
 * is several times faster than inserting into an indexed table. Hence no foreign key: a snapshot's edges go
 * with its partition. No primary key either: each batch commits with its progress, so no row is written twice.
 */
export const webgraphEdges = pgTable(
  "webgraph_edges",
  {
    snapshotId: integer("snapshot_id").notNull(),
    fromId: bigint("from_id", { mode: "number" }).notNull(),
    toId: bigint("to_id", { mode: "number" }).notNull(),
  },
  // Without snapshot_id: a partition holds one snapshot, so the key would be the same in every entry, and
  // leading with to_id lets the index build's sort decide most comparisons on the first key.
  (t) => [index("webgraph_edges_to_idx").on(t.toId, t.fromId)],
);

/** A row of the release's ranks file: harmonic-centrality and PageRank positions (1 = best) and values. */
export const webgraphRanks = pgTable(
  "webgraph_ranks",
  {
    snapshotId: integer("snapshot_id")
      .notNull()
      .references(() => webgraphSnapshots.id, { onDelete: "cascade" }),
    revHost: text("rev_host").notNull(),
    harmonicPos: bigint("harmonic_pos", { mode: "number" }).notNull(),
    harmonicVal: doublePrecision("harmonic_val").notNull(),
    pagerankPos: bigint("pagerank_pos", { mode: "number" }).notNull(),
    pagerankVal: doublePrecision("pagerank_val").notNull(),
    /** Domain level only: hosts of the domain. */
    hostCount: bigint("host_count", { mode: "number" }),
  },
  (t) => [primaryKey({ columns: [t.snapshotId, t.revHost] })],
);

export type WebgraphSnapshot = typeof webgraphSnapshots.$inferSelect;
export type NewWebgraphSnapshot = typeof webgraphSnapshots.$inferInsert;
export type WebgraphVertex = typeof webgraphVertices.$inferSelect;
export type WebgraphEdge = typeof webgraphEdges.$inferSelect;
export type WebgraphRank = typeof webgraphRanks.$inferSelect;
