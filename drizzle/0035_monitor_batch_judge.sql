-- The sentiment judge of monitored answers works per run: an answer that mentions the brand keeps the sentences to
-- judge (judge_input) until its run's judgement has labelled it; the run's judgement is leased like an answer, so a
-- process dying mid-judgement leaves it to another, and its model calls' usage is kept on the run for operators.
ALTER TABLE "monitor_answers" ADD COLUMN "judge_input" jsonb;--> statement-breakpoint
ALTER TABLE "monitor_runs" ADD COLUMN "judge_lease_owner" text;--> statement-breakpoint
ALTER TABLE "monitor_runs" ADD COLUMN "judge_lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "monitor_runs" ADD COLUMN "judge_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "monitor_runs" ADD COLUMN "judge_usage" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "monitor_answers_judge_idx" ON "monitor_answers" USING btree ("run_id") WHERE "judge_input" is not null;
