-- Vertices and ranks are partitioned by snapshot like the edges (drizzle-kit does not declare partitions): an
-- import loads each of its partitions without indexes or foreign-key triggers, builds the indexes once by
-- sorting, and attaches the partitions, which checks the foreign key in one query instead of once per row.
-- An import interrupted before this migration starts over: its rows are dropped with it.
DO $$
DECLARE s integer;
BEGIN
  FOR s IN SELECT id FROM webgraph_snapshots WHERE status = 'importing' LOOP
    EXECUTE format('DROP TABLE IF EXISTS webgraph_edges_s%s', s);
  END LOOP;
END $$;
--> statement-breakpoint
DELETE FROM "webgraph_snapshots" WHERE "status" = 'importing';
--> statement-breakpoint
-- A partition holds one snapshot: snapshot_id in the edge index only made it larger and its build slower.
DROP INDEX "webgraph_edges_to_idx";
--> statement-breakpoint
CREATE INDEX "webgraph_edges_to_idx" ON "webgraph_edges" USING btree ("to_id","from_id");
--> statement-breakpoint
ALTER TABLE "webgraph_vertices" RENAME TO "webgraph_vertices_unpartitioned";
--> statement-breakpoint
ALTER TABLE "webgraph_vertices_unpartitioned" DROP CONSTRAINT "webgraph_vertices_snapshot_id_vertex_id_pk";
--> statement-breakpoint
ALTER TABLE "webgraph_vertices_unpartitioned" DROP CONSTRAINT "webgraph_vertices_snapshot_id_webgraph_snapshots_id_fk";
--> statement-breakpoint
DROP INDEX "webgraph_vertices_rev_host_unique";
--> statement-breakpoint
ALTER TABLE "webgraph_ranks" RENAME TO "webgraph_ranks_unpartitioned";
--> statement-breakpoint
ALTER TABLE "webgraph_ranks_unpartitioned" DROP CONSTRAINT "webgraph_ranks_snapshot_id_rev_host_pk";
--> statement-breakpoint
ALTER TABLE "webgraph_ranks_unpartitioned" DROP CONSTRAINT "webgraph_ranks_snapshot_id_webgraph_snapshots_id_fk";
--> statement-breakpoint
CREATE TABLE "webgraph_vertices" (
	"snapshot_id" integer NOT NULL,
	"vertex_id" bigint NOT NULL,
	"rev_host" text NOT NULL,
	"in_degree" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "webgraph_vertices_snapshot_id_vertex_id_pk" PRIMARY KEY("snapshot_id","vertex_id")
) PARTITION BY LIST ("snapshot_id");
--> statement-breakpoint
CREATE TABLE "webgraph_ranks" (
	"snapshot_id" integer NOT NULL,
	"rev_host" text NOT NULL,
	"harmonic_pos" bigint NOT NULL,
	"harmonic_val" double precision NOT NULL,
	"pagerank_pos" bigint NOT NULL,
	"pagerank_val" double precision NOT NULL,
	"host_count" bigint,
	CONSTRAINT "webgraph_ranks_snapshot_id_rev_host_pk" PRIMARY KEY("snapshot_id","rev_host")
) PARTITION BY LIST ("snapshot_id");
--> statement-breakpoint
ALTER TABLE "webgraph_vertices" ADD CONSTRAINT "webgraph_vertices_snapshot_id_webgraph_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."webgraph_snapshots"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "webgraph_ranks" ADD CONSTRAINT "webgraph_ranks_snapshot_id_webgraph_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."webgraph_snapshots"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "webgraph_vertices_rev_host_unique" ON "webgraph_vertices" USING btree ("snapshot_id","rev_host");
--> statement-breakpoint
DO $$
DECLARE s integer;
BEGIN
  FOR s IN SELECT id FROM webgraph_snapshots LOOP
    EXECUTE format('CREATE TABLE webgraph_vertices_s%s PARTITION OF webgraph_vertices FOR VALUES IN (%s)', s, s);
    EXECUTE format('CREATE TABLE webgraph_ranks_s%s PARTITION OF webgraph_ranks FOR VALUES IN (%s)', s, s);
  END LOOP;
END $$;
--> statement-breakpoint
INSERT INTO "webgraph_vertices" ("snapshot_id", "vertex_id", "rev_host", "in_degree")
	SELECT "snapshot_id", "vertex_id", "rev_host", "in_degree" FROM "webgraph_vertices_unpartitioned";
--> statement-breakpoint
INSERT INTO "webgraph_ranks" ("snapshot_id", "rev_host", "harmonic_pos", "harmonic_val", "pagerank_pos", "pagerank_val", "host_count")
	SELECT "snapshot_id", "rev_host", "harmonic_pos", "harmonic_val", "pagerank_pos", "pagerank_val", "host_count" FROM "webgraph_ranks_unpartitioned";
--> statement-breakpoint
DROP TABLE "webgraph_vertices_unpartitioned";
--> statement-breakpoint
DROP TABLE "webgraph_ranks_unpartitioned";
