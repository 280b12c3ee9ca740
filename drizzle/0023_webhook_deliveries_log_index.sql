-- An endpoint's delivery log (GET /api/v1/webhooks/{id}/deliveries, the dashboard's Webhooks page) lists the newest
-- first, "created_at desc, id desc". The index was (endpoint_id, created_at desc nulls last): plain "desc" puts nulls
-- first and the id was not in it, so Postgres could not take the index's order and sorted all of the endpoint's
-- deliveries (up to 30 days of them, as the history is purged) for each page of 50. The index is now ascending with
-- the id, and the list reads it backward. Deliveries are few next to visits; the statement timeout is lifted for
-- this transaction all the same.
SET LOCAL statement_timeout = 0;--> statement-breakpoint
DROP INDEX "webhook_deliveries_endpoint_idx";--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at","id");
