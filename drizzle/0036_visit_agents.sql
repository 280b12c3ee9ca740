-- A stored visit's user agent, bot purpose, citation reason and demo flag go to a lookup table (visit_agents), each
-- distinct combination stored once: a batch repeats a few dozen of them over a thousand visits, and the user agent
-- alone was some 100 of a visit's 250 heap bytes. What the reads filter and group on (bot name, AI flag, engine,
-- verification) stays in the row. The row also loses received_at (nothing read it), takes its status as a smallint
-- (statuses are 100 to 599) and its verification as an enum (4 bytes, where "unverified" took 11; compared with the
-- same literals), and orders its columns so none pads: fixed-width ones first, widest first.
-- Every stored visit is copied into the new layout with its id, then the old table and its months dropped. The copy
-- runs under the tables' locks and can pass the statement timeout the service sets, so that is lifted here.
SET LOCAL statement_timeout = 0;--> statement-breakpoint
CREATE TABLE "visit_agents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "visit_agents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"key" text COLLATE "C" NOT NULL,
	"user_agent" text NOT NULL,
	"bot_purpose" text,
	"citation_reason" text,
	"is_demo" boolean DEFAULT false NOT NULL,
	CONSTRAINT "visit_agents_key_unique" UNIQUE("key")
);--> statement-breakpoint
-- An agent's key, as ingest computes it (lib/tracking/ingest/visit-agents.ts): the purpose and the reason (closed
-- vocabularies without "/"), "d" for demo traffic, and the user agent's MD5 (of its UTF-8 bytes).
CREATE FUNCTION "visit_agent_key"("user_agent" text, "bot_purpose" text, "citation_reason" text, "is_demo" boolean)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce("bot_purpose", '') || '/' || coalesce("citation_reason", '') || '/'
         || CASE WHEN "is_demo" THEN 'd' ELSE '' END || '/' || md5("user_agent")
$$;--> statement-breakpoint
-- The current table and its months step aside (visits_previous, visits_previous_YYYY_MM), indexes included, so the
-- new ones take their names.
DO $$
DECLARE
  names text[];
  kinds text[];
BEGIN
  -- Listed before any is renamed: the loop renames the table the list is read from.
  SELECT array_agg(c.relname::text), array_agg(c.relkind::text) INTO names, kinds
  FROM pg_class c
  WHERE c.oid IN (
    SELECT relid FROM pg_partition_tree('visits')
    UNION ALL
    SELECT x.indexrelid FROM pg_index x WHERE x.indrelid IN (SELECT relid FROM pg_partition_tree('visits'))
  );
  FOR i IN 1 .. coalesce(array_length(names, 1), 0) LOOP
    EXECUTE format('ALTER %s %I RENAME TO %I', CASE WHEN kinds[i] IN ('i', 'I') THEN 'INDEX' ELSE 'TABLE' END,
                   names[i], 'visits_previous' || substr(names[i], length('visits') + 1));
  END LOOP;
END;
$$;--> statement-breakpoint
CREATE TYPE "visit_verification" AS ENUM ('verified', 'unverified', 'unknown');--> statement-breakpoint
CREATE TABLE "visits" (
	"id" bigint DEFAULT nextval('visits_id_seq'::regclass) NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"domain_id" uuid NOT NULL,
	"agent_id" integer NOT NULL,
	"verification" "visit_verification" NOT NULL,
	"status" smallint,
	"is_ai_bot" boolean DEFAULT false NOT NULL,
	"path" text COLLATE "C" NOT NULL,
	"event_key" text COLLATE "C" NOT NULL,
	"bot_name" text COLLATE "C",
	"verification_method" text,
	"ip" text,
	"referrer" text,
	"citation_engine" text COLLATE "C",
	CONSTRAINT "visits_pkey" PRIMARY KEY ("domain_id", "occurred_at", "event_key"),
	CONSTRAINT "visits_verification_method_valid" CHECK ("verification_method" IN ('signature', 'ip', 'rdns')),
	CONSTRAINT "visits_bot_or_citation" CHECK ("bot_name" IS NOT NULL OR "citation_engine" IS NOT NULL)
) PARTITION BY RANGE ("occurred_at");--> statement-breakpoint
ALTER SEQUENCE "visits_id_seq" OWNED BY "visits"."id";--> statement-breakpoint
CREATE INDEX "visits_citations_idx" ON "visits" USING btree ("domain_id", "occurred_at", "id") WHERE "citation_engine" IS NOT NULL;--> statement-breakpoint
CREATE TABLE "visits_default" PARTITION OF "visits" DEFAULT;--> statement-breakpoint
SELECT "visits_name_partition_indexes"('visits_default');--> statement-breakpoint
-- The months the previous table had, and the months the runner keeps ready (as migration 0034 made them).
SELECT "visits_ensure_partition"(m::date)
FROM (
  SELECT to_date(substr(c.relname, length('visits_previous_') + 1), 'YYYY_MM') AS m
  FROM pg_partition_tree('visits_previous') t JOIN pg_class c ON c.oid = t.relid
  WHERE t.isleaf AND c.relname ~ '^visits_previous_[0-9]{4}_[0-9]{2}$'
  UNION
  SELECT generate_series(date_trunc('month', now() AT TIME ZONE 'UTC') - interval '3 months',
                         date_trunc('month', now() AT TIME ZONE 'UTC') + interval '2 months', interval '1 month')
) months
ORDER BY m;--> statement-breakpoint
INSERT INTO "visit_agents" ("key", "user_agent", "bot_purpose", "citation_reason", "is_demo")
SELECT DISTINCT "visit_agent_key"("user_agent", "bot_purpose", "citation_reason", "is_demo"), "user_agent", "bot_purpose",
       "citation_reason", "is_demo"
FROM "visits_previous"
ORDER BY 1;--> statement-breakpoint
INSERT INTO "visits" ("id", "occurred_at", "domain_id", "agent_id", "verification", "status", "is_ai_bot", "path",
                      "event_key", "bot_name", "verification_method", "ip", "referrer", "citation_engine")
SELECT v."id", v."occurred_at", v."domain_id", a."id", v."verification"::"visit_verification", v."status",
       v."is_ai_bot", v."path", v."event_key", v."bot_name", v."verification_method", v."ip", v."referrer",
       v."citation_engine"
FROM "visits_previous" v
JOIN "visit_agents" a ON a."key" = "visit_agent_key"(v."user_agent", v."bot_purpose", v."citation_reason", v."is_demo")
ORDER BY v."domain_id", v."occurred_at", v."event_key";--> statement-breakpoint
DROP TABLE "visits_previous";--> statement-breakpoint
ANALYZE "visits";--> statement-breakpoint
ANALYZE "visit_agents";
