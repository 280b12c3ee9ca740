-- A visit is named by its domain, time and event key (its primary key), so its separate id goes: 8 bytes of every
-- row, a sequence step per inserted visit, and the citations index's last column. The citations index becomes
-- (domain_id, occurred_at): the newest citations are read by time, and citations of one instant keep the index's
-- own order. Every stored visit is copied into the new layout and the old table and its months dropped (the id's
-- sequence, which the old table owns, with them): a dropped column would keep its 8 bytes in every stored row and
-- leave the months created later laid out unlike the ones before. The copy runs under the tables' locks and can
-- pass the statement timeout the service sets, so that is lifted here.
SET LOCAL statement_timeout = 0;--> statement-breakpoint
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
CREATE TABLE "visits" (
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
CREATE INDEX "visits_citations_idx" ON "visits" USING btree ("domain_id", "occurred_at") WHERE "citation_engine" IS NOT NULL;--> statement-breakpoint
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
INSERT INTO "visits" ("occurred_at", "domain_id", "agent_id", "verification", "status", "is_ai_bot", "path",
                      "event_key", "bot_name", "verification_method", "ip", "referrer", "citation_engine")
SELECT "occurred_at", "domain_id", "agent_id", "verification", "status", "is_ai_bot", "path", "event_key", "bot_name",
       "verification_method", "ip", "referrer", "citation_engine"
FROM "visits_previous"
ORDER BY "domain_id", "occurred_at", "event_key";--> statement-breakpoint
DROP TABLE "visits_previous";--> statement-breakpoint
ANALYZE "visits";
