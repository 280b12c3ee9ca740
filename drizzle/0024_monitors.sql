-- AI visibility monitoring: a monitor asks its prompts of its engines on a schedule; each run is charged when it is
-- created (5 credits per answer) and each failed answer is refunded once. Runs and answers are kept 13 months.
CREATE TABLE "monitors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
	"domain_id" uuid REFERENCES "domains"("id") ON DELETE SET NULL,
	"domain" text NOT NULL,
	"name" text,
	"prompts" jsonb NOT NULL,
	"competitors" text[] DEFAULT '{}' NOT NULL,
	"brand_names" text[] DEFAULT '{}' NOT NULL,
	"engines" text[] NOT NULL,
	"samples" integer DEFAULT 3 NOT NULL,
	"every" text NOT NULL,
	"hour" integer NOT NULL,
	"weekday" integer,
	"time_zone" text NOT NULL,
	"monthly_credit_cap" integer,
	"status" text DEFAULT 'active' NOT NULL,
	"pause_reason" text,
	"next_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitors_status_valid" CHECK ("status" in ('active', 'paused')),
	CONSTRAINT "monitors_pause_reason_valid" CHECK ("pause_reason" is null or "pause_reason" in ('paused_by_user', 'domain_removed')),
	CONSTRAINT "monitors_paused_has_reason" CHECK (("status" = 'paused') = ("pause_reason" is not null)),
	CONSTRAINT "monitors_active_is_scheduled" CHECK ("status" <> 'active' or ("next_run_at" is not null and "domain_id" is not null)),
	CONSTRAINT "monitors_samples_range" CHECK ("samples" between 1 and 10),
	CONSTRAINT "monitors_every_valid" CHECK ("every" in ('day', 'week')),
	CONSTRAINT "monitors_hour_range" CHECK ("hour" between 0 and 23),
	CONSTRAINT "monitors_weekday_when_weekly" CHECK (("every" = 'week') = ("weekday" is not null) and ("weekday" is null or "weekday" between 0 and 6)),
	CONSTRAINT "monitors_cap_positive" CHECK ("monthly_credit_cap" is null or "monthly_credit_cap" > 0),
	CONSTRAINT "monitors_prompts_count" CHECK (jsonb_typeof("prompts") = 'array' and jsonb_array_length("prompts") between 1 and 50),
	CONSTRAINT "monitors_competitors_count" CHECK (cardinality("competitors") <= 5),
	CONSTRAINT "monitors_engines_count" CHECK (cardinality("engines") between 1 and 4 and "engines" <@ array['ChatGPT', 'Perplexity', 'Claude', 'Gemini']::text[])
);
--> statement-breakpoint
CREATE INDEX "monitors_account_idx" ON "monitors" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "monitors_due_idx" ON "monitors" USING btree ("next_run_at") WHERE "status" = 'active';--> statement-breakpoint
CREATE INDEX "monitors_domain_idx" ON "monitors" USING btree ("domain_id");--> statement-breakpoint
CREATE TABLE "monitor_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"monitor_id" uuid NOT NULL REFERENCES "monitors"("id") ON DELETE CASCADE,
	"account_id" uuid NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
	"trigger" text NOT NULL,
	"scheduled_for" timestamp with time zone,
	"status" text NOT NULL,
	"skip_reason" text,
	"skip_detail" jsonb,
	"config" jsonb NOT NULL,
	"answers_planned" integer NOT NULL,
	"credits_charged" integer DEFAULT 0 NOT NULL,
	"credits_refunded" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"expires_at" timestamp with time zone DEFAULT now() + interval '13 months' NOT NULL,
	"idempotency_key" text,
	CONSTRAINT "monitor_runs_trigger_valid" CHECK ("trigger" in ('schedule', 'manual')),
	CONSTRAINT "monitor_runs_status_valid" CHECK ("status" in ('running', 'completed', 'failed', 'skipped')),
	CONSTRAINT "monitor_runs_skip_reason" CHECK (("status" = 'skipped') = ("skip_reason" is not null) and ("skip_reason" is null or "skip_reason" in ('insufficient_credits', 'monthly_cap'))),
	CONSTRAINT "monitor_runs_skipped_uncharged" CHECK ("status" <> 'skipped' or "credits_charged" = 0),
	CONSTRAINT "monitor_runs_scheduled_has_slot" CHECK (("trigger" = 'schedule') = ("scheduled_for" is not null)),
	CONSTRAINT "monitor_runs_credits" CHECK ("credits_charged" >= 0 and "credits_refunded" >= 0 and "credits_refunded" <= "credits_charged"),
	CONSTRAINT "monitor_runs_planned" CHECK ("answers_planned" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "monitor_runs_slot_unique" ON "monitor_runs" USING btree ("monitor_id","scheduled_for") WHERE "scheduled_for" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "monitor_runs_idempotency_unique" ON "monitor_runs" USING btree ("monitor_id","idempotency_key") WHERE "idempotency_key" is not null;--> statement-breakpoint
CREATE INDEX "monitor_runs_monitor_idx" ON "monitor_runs" USING btree ("monitor_id","created_at","id");--> statement-breakpoint
CREATE INDEX "monitor_runs_running_idx" ON "monitor_runs" USING btree ("created_at") WHERE "status" = 'running';--> statement-breakpoint
CREATE INDEX "monitor_runs_expires_idx" ON "monitor_runs" USING btree ("expires_at");--> statement-breakpoint
CREATE TABLE "monitor_answers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL REFERENCES "monitor_runs"("id") ON DELETE CASCADE,
	"monitor_id" uuid NOT NULL REFERENCES "monitors"("id") ON DELETE CASCADE,
	"account_id" uuid NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
	"engine" text NOT NULL,
	"prompt_index" integer NOT NULL,
	"prompt" text NOT NULL,
	"sample" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"not_before" timestamp with time zone,
	"slot_at" timestamp with time zone,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"mentioned" boolean,
	"position" integer,
	"sentiment" text,
	"sentiment_method" text,
	"cited" text[],
	"retrieved" text[],
	"queries" text[],
	"cited_domains" text[],
	"own_cited" boolean,
	"competitors" jsonb,
	"answer" text,
	"model" text,
	"error" jsonb,
	"usage" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "monitor_answers_status_valid" CHECK ("status" in ('pending', 'running', 'succeeded', 'failed')),
	CONSTRAINT "monitor_answers_engine_valid" CHECK ("engine" in ('ChatGPT', 'Perplexity', 'Claude', 'Gemini')),
	CONSTRAINT "monitor_answers_sample_range" CHECK ("sample" between 1 and 10),
	CONSTRAINT "monitor_answers_error_when_failed" CHECK (("status" = 'failed') = ("error" is not null)),
	CONSTRAINT "monitor_answers_lease_when_running" CHECK ("status" <> 'running' or "lease_expires_at" is not null),
	CONSTRAINT "monitor_answers_sentiment_valid" CHECK ("sentiment" is null or "sentiment" in ('positive', 'neutral', 'negative'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "monitor_answers_unique" ON "monitor_answers" USING btree ("run_id","engine","prompt_index","sample");--> statement-breakpoint
CREATE INDEX "monitor_answers_pending_idx" ON "monitor_answers" USING btree ("engine","created_at") WHERE "status" = 'pending';--> statement-breakpoint
CREATE INDEX "monitor_answers_running_idx" ON "monitor_answers" USING btree ("engine","lease_expires_at") WHERE "status" = 'running';--> statement-breakpoint
CREATE INDEX "monitor_answers_monitor_idx" ON "monitor_answers" USING btree ("monitor_id","created_at");--> statement-breakpoint
CREATE TABLE "provider_budgets" (
	"engine" text PRIMARY KEY NOT NULL,
	"next_slot_at" timestamp with time zone DEFAULT now() NOT NULL,
	"blocked_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "monitor_run_id" uuid REFERENCES "monitor_runs"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "monitor_answer_id" uuid REFERENCES "monitor_answers"("id") ON DELETE SET NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_monitor_run_spend_unique" ON "credit_ledger" USING btree ("monitor_run_id") WHERE "monitor_run_id" is not null and "type" = 'spend';--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_monitor_answer_refund_unique" ON "credit_ledger" USING btree ("monitor_answer_id") WHERE "monitor_answer_id" is not null;--> statement-breakpoint
CREATE FUNCTION "monitors_pause_for_removed_domain"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "monitors" SET "status" = 'paused', "pause_reason" = 'domain_removed', "domain_id" = NULL,
    "next_run_at" = NULL, "updated_at" = now()
  WHERE "domain_id" = OLD."id";
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER "monitors_pause_for_removed_domain" BEFORE DELETE ON "domains" FOR EACH ROW EXECUTE FUNCTION "monitors_pause_for_removed_domain"();
