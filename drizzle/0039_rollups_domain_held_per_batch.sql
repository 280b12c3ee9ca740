-- The tracking rollups' domain without a foreign key, as the visits' (migration 0016). Every rollup row a batch
-- inserts ran the key's check, and every row it adds to the after-update event that decides whether a check is
-- needed: work per row, where a backfill or a large site's batch writes some 1,500 rows. The ingest statement already
-- locks each domain of its batch once, as the key's check would, and refuses the batch if one is gone; it is the only
-- writer that inserts rollup rows (verdicts add to rows that exist). What the keys' ON DELETE CASCADE did, the trigger
-- that removes a removed domain's visits now does for its rollup rows too, however the domain is removed (with its
-- account included), in one statement per table.
ALTER TABLE "tracking_daily_bots" DROP CONSTRAINT "tracking_daily_bots_domain_id_domains_id_fk";--> statement-breakpoint
ALTER TABLE "tracking_page_counts" DROP CONSTRAINT "tracking_page_counts_domain_id_domains_id_fk";--> statement-breakpoint
ALTER TABLE "tracking_daily_citations" DROP CONSTRAINT "tracking_daily_citations_domain_id_domains_id_fk";--> statement-breakpoint
ALTER TABLE "tracking_cited_pages" DROP CONSTRAINT "tracking_cited_pages_domain_id_domains_id_fk";--> statement-breakpoint
ALTER TABLE "tracking_daily_pages" DROP CONSTRAINT "tracking_daily_pages_domain_id_domains_id_fk";--> statement-breakpoint
ALTER TABLE "tracking_daily_page_citations" DROP CONSTRAINT "tracking_daily_page_citations_domain_id_domains_id_fk";--> statement-breakpoint
DROP TRIGGER "domains_delete_visits" ON "domains";--> statement-breakpoint
DROP FUNCTION "visits_delete_for_removed_domains"();--> statement-breakpoint
CREATE FUNCTION "tracking_delete_for_removed_domains"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "visits" WHERE "domain_id" IN (SELECT "id" FROM "removed_domains");
  DELETE FROM "tracking_daily_bots" WHERE "domain_id" IN (SELECT "id" FROM "removed_domains");
  DELETE FROM "tracking_page_counts" WHERE "domain_id" IN (SELECT "id" FROM "removed_domains");
  DELETE FROM "tracking_daily_citations" WHERE "domain_id" IN (SELECT "id" FROM "removed_domains");
  DELETE FROM "tracking_cited_pages" WHERE "domain_id" IN (SELECT "id" FROM "removed_domains");
  DELETE FROM "tracking_daily_pages" WHERE "domain_id" IN (SELECT "id" FROM "removed_domains");
  DELETE FROM "tracking_daily_page_citations" WHERE "domain_id" IN (SELECT "id" FROM "removed_domains");
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "domains_delete_tracking" AFTER DELETE ON "domains"
  REFERENCING OLD TABLE AS "removed_domains" FOR EACH STATEMENT
  EXECUTE FUNCTION "tracking_delete_for_removed_domains"();
