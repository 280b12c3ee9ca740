-- Every batch of visits adds to rows of the rollups (per domain and day: bots, citations, crawled and cited pages;
-- per domain and page: all-time counts). An update that changes no indexed column and finds room on its row's page
-- is a heap-only (HOT) update: no new entry in any index, and the old version is pruned with the page. With pages
-- filled to the brim, every update moved its row to another page and wrote a new entry in each index. The rollups
-- now leave half of each page free, room for a new version of every row on it (a backfill's batch updates every
-- day's rows of its period at once); they are small beside the raw visits, so the room costs little.
-- The page counts' index for the top pages held the count itself, so every count's update wrote an entry there. It
-- holds a rank instead, the count's power of two (floor(log2 visits)), which an update leaves as it is but when the
-- count reaches the next power. The top pages read the ranks from the top down to the tenth page's, then order
-- those pages by their counts.
-- CLUSTER rewrites each table once, so its existing pages leave the room too (the page counts are rewritten by the
-- new column).
SET LOCAL statement_timeout = 0;--> statement-breakpoint
ALTER TABLE "tracking_daily_bots" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "tracking_daily_citations" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "tracking_daily_pages" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "tracking_daily_page_citations" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "tracking_page_counts" SET (fillfactor = 50);--> statement-breakpoint
DROP INDEX "tracking_page_counts_top_idx";--> statement-breakpoint
ALTER TABLE "tracking_page_counts" ADD COLUMN "visits_rank" smallint GENERATED ALWAYS AS (floor(ln("visits"::float8) / ln(2::float8))::smallint) STORED;--> statement-breakpoint
CREATE INDEX "tracking_page_counts_top_idx" ON "tracking_page_counts" USING btree ("domain_id", "visits_rank" DESC);--> statement-breakpoint
CLUSTER "tracking_daily_bots" USING "tracking_daily_bots_domain_id_day_bot_name_pk";--> statement-breakpoint
CLUSTER "tracking_daily_citations" USING "tracking_daily_citations_domain_id_day_engine_pk";--> statement-breakpoint
CLUSTER "tracking_daily_pages" USING "tracking_daily_pages_domain_id_day_page_pk";--> statement-breakpoint
CLUSTER "tracking_daily_page_citations" USING "tracking_daily_page_citations_pk";--> statement-breakpoint
ANALYZE "tracking_daily_bots";--> statement-breakpoint
ANALYZE "tracking_daily_citations";--> statement-breakpoint
ANALYZE "tracking_daily_pages";--> statement-breakpoint
ANALYZE "tracking_daily_page_citations";--> statement-breakpoint
ANALYZE "tracking_page_counts";
