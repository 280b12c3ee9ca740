-- webgraph_edges is partitioned by snapshot by hand (drizzle-kit does not declare partitions): each import
-- loads its own partition unindexed, then indexes and attaches it.
CREATE TABLE "webgraph_edges" (
	"snapshot_id" integer NOT NULL,
	"from_id" bigint NOT NULL,
	"to_id" bigint NOT NULL
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
);
--> statement-breakpoint
CREATE TABLE "webgraph_snapshots" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"level" text NOT NULL,
	"taken_on" date NOT NULL,
	"status" text DEFAULT 'importing' NOT NULL,
	"progress" jsonb NOT NULL,
	"ranked_count" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "webgraph_snapshots_level_valid" CHECK ("webgraph_snapshots"."level" in ('host', 'domain')),
	CONSTRAINT "webgraph_snapshots_status_valid" CHECK ("webgraph_snapshots"."status" in ('importing', 'ready')),
	CONSTRAINT "webgraph_snapshots_ready_completed" CHECK (("webgraph_snapshots"."status" = 'ready') = ("webgraph_snapshots"."completed_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "webgraph_vertices" (
	"snapshot_id" integer NOT NULL,
	"vertex_id" bigint NOT NULL,
	"rev_host" text NOT NULL,
	"in_degree" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "webgraph_vertices_snapshot_id_vertex_id_pk" PRIMARY KEY("snapshot_id","vertex_id")
);
--> statement-breakpoint
ALTER TABLE "webgraph_ranks" ADD CONSTRAINT "webgraph_ranks_snapshot_id_webgraph_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."webgraph_snapshots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webgraph_vertices" ADD CONSTRAINT "webgraph_vertices_snapshot_id_webgraph_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."webgraph_snapshots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webgraph_edges_to_idx" ON "webgraph_edges" USING btree ("snapshot_id","to_id","from_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webgraph_snapshots_name_level_unique" ON "webgraph_snapshots" USING btree ("name","level");--> statement-breakpoint
CREATE INDEX "webgraph_snapshots_ready_idx" ON "webgraph_snapshots" USING btree ("level","taken_on" DESC NULLS LAST) WHERE "webgraph_snapshots"."status" = 'ready';--> statement-breakpoint
CREATE UNIQUE INDEX "webgraph_vertices_rev_host_unique" ON "webgraph_vertices" USING btree ("snapshot_id","rev_host");