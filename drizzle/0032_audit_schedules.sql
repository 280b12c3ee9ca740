-- Scheduled site audits: a schedule runs one tool (URL audit, SEO/AEO/GEO audit, Core Web Vitals, AI access) on one
-- URL of a registered domain, daily or weekly. Each run is charged when it is created, as the tool's job (the job's
-- own spend row; a failed job is refunded once by the job runner). A run keeps its result snapshot, scores and
-- comparison with the run before it for 13 months, after the job itself is purged.
CREATE TABLE "audit_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
	"domain_id" uuid REFERENCES "domains"("id") ON DELETE SET NULL,
	"domain" text NOT NULL,
	"tool" text NOT NULL,
	"url" text NOT NULL,
	"input" jsonb NOT NULL,
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
	CONSTRAINT "audit_schedules_tool_valid" CHECK ("tool" in ('audits', 'seo-aeo-geo-audit', 'core-web-vitals', 'ai-access')),
	CONSTRAINT "audit_schedules_status_valid" CHECK ("status" in ('active', 'paused')),
	CONSTRAINT "audit_schedules_pause_reason_valid" CHECK ("pause_reason" is null or "pause_reason" in ('paused_by_user', 'domain_removed')),
	CONSTRAINT "audit_schedules_paused_has_reason" CHECK (("status" = 'paused') = ("pause_reason" is not null)),
	CONSTRAINT "audit_schedules_active_is_scheduled" CHECK ("status" <> 'active' or ("next_run_at" is not null and "domain_id" is not null)),
	CONSTRAINT "audit_schedules_every_valid" CHECK ("every" in ('day', 'week')),
	CONSTRAINT "audit_schedules_hour_range" CHECK ("hour" between 0 and 23),
	CONSTRAINT "audit_schedules_weekday_when_weekly" CHECK (("every" = 'week') = ("weekday" is not null) and ("weekday" is null or "weekday" between 0 and 6)),
	CONSTRAINT "audit_schedules_cap_positive" CHECK ("monthly_credit_cap" is null or "monthly_credit_cap" > 0)
);
--> statement-breakpoint
CREATE INDEX "audit_schedules_account_idx" ON "audit_schedules" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_schedules_due_idx" ON "audit_schedules" USING btree ("next_run_at") WHERE "status" = 'active';--> statement-breakpoint
CREATE INDEX "audit_schedules_domain_idx" ON "audit_schedules" USING btree ("domain_id");--> statement-breakpoint
CREATE TABLE "audit_schedule_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"schedule_id" uuid NOT NULL REFERENCES "audit_schedules"("id") ON DELETE CASCADE,
	"account_id" uuid NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
	"tool" text NOT NULL,
	"url" text NOT NULL,
	"trigger" text NOT NULL,
	"scheduled_for" timestamp with time zone,
	"status" text NOT NULL,
	"skip_reason" text,
	"skip_detail" jsonb,
	"job_id" uuid REFERENCES "jobs"("id") ON DELETE SET NULL,
	"credits_charged" integer DEFAULT 0 NOT NULL,
	"credits_refunded" integer DEFAULT 0 NOT NULL,
	"scores" jsonb,
	"vitals" jsonb,
	"snapshot" jsonb,
	"changes" jsonb,
	"regressed" boolean,
	"error" jsonb,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"expires_at" timestamp with time zone DEFAULT now() + interval '13 months' NOT NULL,
	CONSTRAINT "audit_schedule_runs_trigger_valid" CHECK ("trigger" in ('schedule', 'manual')),
	CONSTRAINT "audit_schedule_runs_status_valid" CHECK ("status" in ('running', 'completed', 'failed', 'skipped')),
	CONSTRAINT "audit_schedule_runs_skip_reason" CHECK (("status" = 'skipped') = ("skip_reason" is not null) and ("skip_reason" is null or "skip_reason" in ('insufficient_credits', 'monthly_cap'))),
	CONSTRAINT "audit_schedule_runs_skipped_uncharged" CHECK ("status" <> 'skipped' or "credits_charged" = 0),
	CONSTRAINT "audit_schedule_runs_scheduled_has_slot" CHECK (("trigger" = 'schedule') = ("scheduled_for" is not null)),
	CONSTRAINT "audit_schedule_runs_credits" CHECK ("credits_charged" >= 0 and "credits_refunded" >= 0 and "credits_refunded" <= "credits_charged")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "audit_schedule_runs_slot_unique" ON "audit_schedule_runs" USING btree ("schedule_id","scheduled_for") WHERE "scheduled_for" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_schedule_runs_idempotency_unique" ON "audit_schedule_runs" USING btree ("schedule_id","idempotency_key") WHERE "idempotency_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_schedule_runs_job_unique" ON "audit_schedule_runs" USING btree ("job_id") WHERE "job_id" is not null;--> statement-breakpoint
CREATE INDEX "audit_schedule_runs_schedule_idx" ON "audit_schedule_runs" USING btree ("schedule_id","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_schedule_runs_running_idx" ON "audit_schedule_runs" USING btree ("created_at") WHERE "status" = 'running';--> statement-breakpoint
CREATE INDEX "audit_schedule_runs_expires_idx" ON "audit_schedule_runs" USING btree ("expires_at");--> statement-breakpoint
CREATE FUNCTION "audit_schedules_pause_for_removed_domain"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "audit_schedules" SET "status" = 'paused', "pause_reason" = 'domain_removed', "domain_id" = NULL,
    "next_run_at" = NULL, "updated_at" = now()
  WHERE "domain_id" = OLD."id";
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER "audit_schedules_pause_for_removed_domain" BEFORE DELETE ON "domains" FOR EACH ROW EXECUTE FUNCTION "audit_schedules_pause_for_removed_domain"();
