-- The visits' time indexes (a domain's visits, its citations) become ascending on (domain_id, occurred_at, id); the
-- reads walk them backward for "newest first". Visits arrive in time order: in an ascending index a batch's newest
-- entries land at the end of their domain's group, and when such a leaf page splits Postgres keeps it packed (about
-- 90% full). In the descending form each new entry went to the front of its group, and every split left two half-full
-- pages: measured on 300 batches of 1000 time-ordered visits, 25 MB at 51% leaf density against 14 MB at 90%.
-- The reads also ordered "desc nulls last" or "desc" inconsistently, so the visits list (ordering plain "desc") could
-- not use the old index's order and sorted all of a domain's visits; both now order plain "desc", which is this
-- index read backward. The indexes are rebuilt under the table's lock: about 25 s for 10 million visits on a
-- 2-core machine, longer than the statement timeout the service sets on its connections
-- (DATABASE_STATEMENT_TIMEOUT_MS, 30 s by default) on a larger table, so it is lifted for the migrations' transaction.
SET LOCAL statement_timeout = 0;--> statement-breakpoint
DROP INDEX "visits_domain_time_idx";--> statement-breakpoint
DROP INDEX "visits_citations_idx";--> statement-breakpoint
CREATE INDEX "visits_domain_time_idx" ON "visits" USING btree ("domain_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "visits_citations_idx" ON "visits" USING btree ("domain_id","occurred_at","id") WHERE "visits"."citation_engine" is not null;
