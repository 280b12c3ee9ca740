-- Fair claiming takes each account's oldest pending jobs and counts each account's processing jobs.
CREATE INDEX "jobs_pending_account_idx" ON "jobs" USING btree ("account_id","created_at","id") WHERE "jobs"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "jobs_processing_account_idx" ON "jobs" USING btree ("account_id") WHERE "jobs"."status" = 'processing';
