-- Ingest appends what each batch adds to the rollups here instead of updating the rollups' rows in its own statement:
-- a backfill's or a large site's batch of 1,000 visits touched some 1,500 rollup rows (a key search, a row lock and
-- a new row version each), where an append touches one heap page. A fold moves the increments into the rollups:
-- right after the batches of a domain (within a second, in the ingesting process), before every read of its
-- rollups, and in the runner's sweep; many batches' increments of one rollup row become one update.
-- No foreign key, as the rollups': the ingest statement holds the batch's domain, and the trigger below removes a
-- removed domain's increments with its rollups.
-- rollup: 1 daily bots (name = bot, detail = purpose, flag = AI bot, n1..n6 = visits, verified, spoofed, and the
-- verified by signature, IP range and reverse DNS), 2 page counts (name = page, n1 = visits), 3 daily citations
-- (name = engine, n1 = citations), 4 daily crawled pages (name = page, n1 = AI crawls, n2 = verified, first_at),
-- 5 daily cited pages (name = page, detail = engine, extra = assistant, n1 = citations, first_at). A verdict reached
-- after a visit was stored appends its change (visits 0; verified +1, spoofed -1 ...).
CREATE TABLE "tracking_rollup_pending" (
	"domain_id" uuid NOT NULL,
	"rollup" smallint NOT NULL,
	"day" date,
	"name" text COLLATE "C",
	"detail" text COLLATE "C",
	"extra" text COLLATE "C",
	"flag" boolean,
	"n1" integer NOT NULL,
	"n2" integer NOT NULL,
	"n3" integer NOT NULL,
	"n4" integer NOT NULL,
	"n5" integer NOT NULL,
	"n6" integer NOT NULL,
	"first_at" timestamp with time zone
) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000);--> statement-breakpoint
CREATE INDEX "tracking_rollup_pending_domain_idx" ON "tracking_rollup_pending" USING btree ("domain_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "tracking_delete_for_removed_domains"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "visits" WHERE "domain_id" IN (SELECT "id" FROM "removed_domains");
  DELETE FROM "tracking_daily_bots" WHERE "domain_id" IN (SELECT "id" FROM "removed_domains");
  DELETE FROM "tracking_page_counts" WHERE "domain_id" IN (SELECT "id" FROM "removed_domains");
  DELETE FROM "tracking_daily_citations" WHERE "domain_id" IN (SELECT "id" FROM "removed_domains");
  DELETE FROM "tracking_cited_pages" WHERE "domain_id" IN (SELECT "id" FROM "removed_domains");
  DELETE FROM "tracking_daily_pages" WHERE "domain_id" IN (SELECT "id" FROM "removed_domains");
  DELETE FROM "tracking_daily_page_citations" WHERE "domain_id" IN (SELECT "id" FROM "removed_domains");
  DELETE FROM "tracking_rollup_pending" WHERE "domain_id" IN (SELECT "id" FROM "removed_domains");
  RETURN NULL;
END;
$$;
