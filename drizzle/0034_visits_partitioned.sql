-- Raw visits become a table partitioned by UTC month on occurred_at (native declarative partitioning), so the
-- raw-visit retention (TRACKING_RAW_RETENTION_MONTHS) drops whole months instead of deleting rows, and each month's
-- indexes stay the size of a month. The runner creates the months ahead (visits_ensure_partition); a visit whose
-- month has no partition yet lands in visits_default and moves into its month when that partition is created, so no
-- visit is ever refused for want of one. The daily rollups and citations are separate tables and stay.
-- A partitioned table's unique keys must hold the partition key: the primary key becomes (domain_id, occurred_at,
-- event_key). An event sent again carries the same time (events and log lines always have one), so a retried or
-- replayed event is still the same key. Time before the event key also inserts each domain's visits in time order
-- for events sent with an id (a client's ids are in no order), and makes the key the domain's time index: the
-- visits list and the dashboard's breakdowns walk it backward (ties on the time ordered by event key), so the
-- separate index on (domain_id, occurred_at, id) goes, and with it a quarter of each visit's bytes and one index
-- insert per visit.
-- Every stored visit is copied into the new table, then the old one dropped; the copy runs under the table's lock
-- and can pass the statement timeout the service sets on its connections, so that is lifted for the migrations'
-- transaction.
SET LOCAL statement_timeout = 0;--> statement-breakpoint
ALTER TABLE "visits" RENAME TO "visits_unpartitioned";--> statement-breakpoint
ALTER INDEX "visits_pkey" RENAME TO "visits_unpartitioned_pkey";--> statement-breakpoint
ALTER INDEX "visits_domain_time_idx" RENAME TO "visits_unpartitioned_domain_time_idx";--> statement-breakpoint
ALTER INDEX "visits_citations_idx" RENAME TO "visits_unpartitioned_citations_idx";--> statement-breakpoint
CREATE TABLE "visits" (
	"id" bigint DEFAULT nextval('visits_id_seq'::regclass) NOT NULL,
	"domain_id" uuid NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"path" text COLLATE "C" NOT NULL,
	"user_agent" text NOT NULL,
	"ip" text,
	"referrer" text,
	"status" integer,
	"bot_name" text COLLATE "C",
	"bot_purpose" text,
	"is_ai_bot" boolean DEFAULT false NOT NULL,
	"verification" text NOT NULL,
	"verification_method" text,
	"citation_engine" text COLLATE "C",
	"citation_reason" text,
	"event_key" text COLLATE "C" NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visits_pkey" PRIMARY KEY ("domain_id", "occurred_at", "event_key"),
	CONSTRAINT "visits_verification_valid" CHECK ("verification" IN ('verified', 'unverified', 'unknown')),
	CONSTRAINT "visits_verification_method_valid" CHECK ("verification_method" IN ('signature', 'ip', 'rdns')),
	CONSTRAINT "visits_bot_or_citation" CHECK ("bot_name" IS NOT NULL OR "citation_engine" IS NOT NULL)
) PARTITION BY RANGE ("occurred_at");--> statement-breakpoint
-- The sequence goes with the new table (dropping the old one would drop a sequence it owns).
ALTER SEQUENCE "visits_id_seq" OWNED BY "visits"."id";--> statement-breakpoint
CREATE INDEX "visits_citations_idx" ON "visits" USING btree ("domain_id", "occurred_at", "id") WHERE "citation_engine" IS NOT NULL;--> statement-breakpoint
-- Names a partition's indexes after the parent's: visits_pkey becomes visits_2026_11_pkey (plans name them so).
CREATE FUNCTION "visits_name_partition_indexes"("part" text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  idx record;
BEGIN
  FOR idx IN
    SELECT c.relname AS child, p.relname AS parent
    FROM pg_index x
    JOIN pg_inherits i ON i.inhrelid = x.indexrelid
    JOIN pg_class c ON c.oid = x.indexrelid
    JOIN pg_class p ON p.oid = i.inhparent
    WHERE x.indrelid = format('%I', "part")::regclass
  LOOP
    IF idx.child <> "part" || substr(idx.parent, length('visits') + 1) THEN
      EXECUTE format('ALTER INDEX %I RENAME TO %I', idx.child, "part" || substr(idx.parent, length('visits') + 1));
    END IF;
  END LOOP;
END;
$$;--> statement-breakpoint
CREATE TABLE "visits_default" PARTITION OF "visits" DEFAULT;--> statement-breakpoint
SELECT "visits_name_partition_indexes"('visits_default');--> statement-breakpoint
-- The partition of the UTC month holding `month` (visits_YYYY_MM), unless it exists; true when it was created. The
-- month's visits that waited in the default partition move into it. ATTACH PARTITION, where CREATE TABLE ...
-- PARTITION OF would lock the whole table against every read and write, locks the parent only against other
-- schema changes (and the default partition while it checks that none of its rows remain for the month).
CREATE FUNCTION "visits_ensure_partition"("month" date) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  lo timestamptz := date_trunc('month', "month"::timestamp) AT TIME ZONE 'UTC';
  hi timestamptz := (date_trunc('month', "month"::timestamp) + interval '1 month') AT TIME ZONE 'UTC';
  part text := 'visits_' || to_char("month", 'YYYY_MM');
BEGIN
  IF to_regclass(format('%I', part)) IS NOT NULL THEN
    RETURN false;
  END IF;
  -- Self-conflicting, so one process at a time; granted, it also refreshes this session's view of the catalog
  -- (another process may have just created the month). Reads and writes of visits go on.
  LOCK TABLE "visits" IN SHARE UPDATE EXCLUSIVE MODE;
  IF to_regclass(format('%I', part)) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE "visits" INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part);
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK ("occurred_at" >= %L AND "occurred_at" < %L)',
                 part, part || '_bounds', lo, hi);
  EXECUTE format('WITH moved AS (DELETE FROM "visits_default" WHERE "occurred_at" >= %L AND "occurred_at" < %L '
                 'RETURNING *) INSERT INTO %I SELECT * FROM moved', lo, hi, part);
  EXECUTE format('ALTER TABLE "visits" ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, lo, hi);
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', part, part || '_bounds');
  PERFORM "visits_name_partition_indexes"(part);
  RETURN true;
END;
$$;--> statement-breakpoint
-- A partition for every month that holds stored visits, and for the three months before this one to two after it
-- (events are accepted up to 90 days old); the runner keeps creating months ahead from here.
SELECT "visits_ensure_partition"(m::date)
FROM (
  SELECT date_trunc('month', "occurred_at" AT TIME ZONE 'UTC') AS m FROM "visits_unpartitioned"
  UNION
  SELECT generate_series(date_trunc('month', now() AT TIME ZONE 'UTC') - interval '3 months',
                         date_trunc('month', now() AT TIME ZONE 'UTC') + interval '2 months', interval '1 month')
) months
ORDER BY m;--> statement-breakpoint
-- A computed event key was "t:<time in hexadecimal>:<22 characters of the hash>[#n]"; the time is in the key now,
-- so it becomes "t:<the hash's first 11 characters>[#n]", what ingest computes for the same event from here on (an
-- event sent again is still recognised). 13 to 24 bytes fewer per visit in the row and again in the key.
CREATE FUNCTION "visits_short_event_key"("key" text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN "key" LIKE 't:%:%'
    THEN 't:' || substr(split_part("key", ':', 3), 1, 11) || coalesce(substring("key" FROM '#[0-9]+$'), '')
    ELSE "key" END
$$;--> statement-breakpoint
INSERT INTO "visits" ("id", "domain_id", "occurred_at", "path", "user_agent", "ip", "referrer", "status", "bot_name",
                      "bot_purpose", "is_ai_bot", "verification", "verification_method", "citation_engine",
                      "citation_reason", "event_key", "is_demo", "received_at")
SELECT "id", "domain_id", "occurred_at", "path", "user_agent", "ip", "referrer", "status", "bot_name", "bot_purpose",
       "is_ai_bot", "verification", "verification_method", "citation_engine", "citation_reason",
       "visits_short_event_key"("event_key"), "is_demo", "received_at"
FROM "visits_unpartitioned"
ORDER BY "domain_id", "occurred_at", "event_key";--> statement-breakpoint
DROP TABLE "visits_unpartitioned";--> statement-breakpoint
ANALYZE "visits";
