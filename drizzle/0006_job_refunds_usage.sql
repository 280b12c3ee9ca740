ALTER TABLE "jobs" ADD COLUMN "credits_refunded_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "provider_usage" jsonb;--> statement-breakpoint
UPDATE "jobs" SET "credits_refunded_amount" = "credits_charged" WHERE "credits_refunded";--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_refunded_amount_bounds" CHECK ("jobs"."credits_refunded_amount" >= 0 and "jobs"."credits_refunded_amount" <= "jobs"."credits_charged");