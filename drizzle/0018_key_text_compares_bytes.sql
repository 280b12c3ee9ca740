-- The text columns ingest writes keys into and groups by compare byte by byte (collation "C"): event keys, paths,
-- bot and engine names. Under the database's default collation each comparison in a B-tree descent or a sort went
-- through strcoll (glibc's C.UTF-8 included); equality is unchanged. The tables are not rewritten (same type), but
-- the indexes on these columns are rebuilt, under the table's lock: the visits' primary key and citation index took
-- 22 s at 11 million visits on a 2-core machine. One statement per table, so each index is rebuilt once.
ALTER TABLE "tracking_cited_pages" ALTER COLUMN "engine" SET DATA TYPE text COLLATE "C", ALTER COLUMN "page" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "tracking_daily_bots" ALTER COLUMN "bot_name" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "tracking_daily_citations" ALTER COLUMN "engine" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "tracking_page_counts" ALTER COLUMN "path" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "visits" ALTER COLUMN "path" SET DATA TYPE text COLLATE "C", ALTER COLUMN "bot_name" SET DATA TYPE text COLLATE "C", ALTER COLUMN "citation_engine" SET DATA TYPE text COLLATE "C", ALTER COLUMN "event_key" SET DATA TYPE text COLLATE "C";
