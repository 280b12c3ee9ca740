-- The visits' time indexes (a domain's visits, its citations) become ascending on (domain_id, occurred_at, id); the
-- reads walk them backward for "newest first". The visits list ordered plain "desc" (nulls first) against an index
-- in "desc nulls last" order, so it could not use the index's order and sorted all of a domain's visits for each
-- page: 1.9 s for the first page at 11 million visits on a 2-core machine, 0.4 ms now. Both reads now order plain
-- "desc", which is this index read backward. Ascending also suits how visits arrive: in time order, a batch's
-- entries land at the end of their domain's group, and Postgres keeps such a leaf page packed when it splits (300
-- batches of 1000 time-ordered visits: 14 MB at 90% leaf density, against 25 MB at 51% in the descending form, where
-- each new entry went to the front of its group and every split left two half-full pages).
-- The indexes are rebuilt under the table's lock: 13 s for 11 million visits on a 2-core machine. On a larger table
-- that can pass the statement timeout the service sets on its connections (DATABASE_STATEMENT_TIMEOUT_MS, 30 s by
-- default), so it is lifted for the migrations' transaction.
SET LOCAL statement_timeout = 0;--> statement-breakpoint
DROP INDEX "visits_domain_time_idx";--> statement-breakpoint
DROP INDEX "visits_citations_idx";--> statement-breakpoint
CREATE INDEX "visits_domain_time_idx" ON "visits" USING btree ("domain_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "visits_citations_idx" ON "visits" USING btree ("domain_id","occurred_at","id") WHERE "visits"."citation_engine" is not null;
