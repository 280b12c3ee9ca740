-- The page counts' rank (the top pages' index) is the count's power of four instead of two. An update that changes
-- the rank is not heap-only: it writes a new entry in each index. On a large site most pages count a few visits,
-- and with powers of two a page's second, fourth and eighth visits each changed its rank (four in ten of a 50,000-page
-- site's count updates); with powers of four its fourth and sixteenth do. The top pages still read the ranks from
-- the top down to the tenth page's, each rank now spanning four times the counts.
SET LOCAL statement_timeout = 0;--> statement-breakpoint
DROP INDEX "tracking_page_counts_top_idx";--> statement-breakpoint
ALTER TABLE "tracking_page_counts" DROP COLUMN "visits_rank";--> statement-breakpoint
ALTER TABLE "tracking_page_counts" ADD COLUMN "visits_rank" smallint GENERATED ALWAYS AS (floor(ln("visits"::float8) / ln(4::float8))::smallint) STORED;--> statement-breakpoint
CREATE INDEX "tracking_page_counts_top_idx" ON "tracking_page_counts" USING btree ("domain_id", "visits_rank" DESC);--> statement-breakpoint
ANALYZE "tracking_page_counts";
