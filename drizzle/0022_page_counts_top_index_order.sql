-- The stats read's top pages (GET /tracking/stats) are a domain's page counts in the order "visits desc, path". The
-- index was (domain_id, visits desc nulls last): plain "desc" puts nulls first, so Postgres could not read the top
-- off it and sorted every page count of the domain on each read: 100-170 ms at 54,000 pages of one domain on a
-- 2-core machine. The index is now in plain "desc" order, and the read takes the first ten entries and any that tie
-- with the tenth ("fetch first 10 rows with ties"), then orders those few by path. Page counts are one row per page
-- of each domain, so the rebuild is short (0.3 s for 54,000 pages here); on a very large table it could still pass
-- the statement timeout the service sets on its connections, which is lifted for this transaction.
SET LOCAL statement_timeout = 0;--> statement-breakpoint
DROP INDEX "tracking_page_counts_top_idx";--> statement-breakpoint
CREATE INDEX "tracking_page_counts_top_idx" ON "tracking_page_counts" USING btree ("domain_id","visits" DESC NULLS FIRST);
