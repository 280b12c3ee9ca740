CREATE TABLE "visibility_observations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"job_id" uuid,
	"domain" text NOT NULL,
	"engine" text NOT NULL,
	"prompt" text NOT NULL,
	"cited" boolean NOT NULL,
	"mentioned" boolean NOT NULL,
	"position" integer NOT NULL,
	"sentiment" text NOT NULL,
	"observed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visibility_observations_engine_valid" CHECK ("visibility_observations"."engine" in ('ChatGPT', 'Perplexity', 'Claude', 'Gemini')),
	CONSTRAINT "visibility_observations_sentiment_valid" CHECK ("visibility_observations"."sentiment" in ('positive', 'neutral', 'negative')),
	CONSTRAINT "visibility_observations_position_valid" CHECK ("visibility_observations"."position" >= 0),
	CONSTRAINT "visibility_observations_mention_position" CHECK (("visibility_observations"."mentioned" and "visibility_observations"."position" > 0) or (not "visibility_observations"."mentioned" and "visibility_observations"."position" = 0))
);
--> statement-breakpoint
ALTER TABLE "visibility_observations" ADD CONSTRAINT "visibility_observations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visibility_observations" ADD CONSTRAINT "visibility_observations_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visibility_observations_account_domain_idx" ON "visibility_observations" USING btree ("account_id","domain","observed_at");--> statement-breakpoint
CREATE INDEX "visibility_observations_observed_idx" ON "visibility_observations" USING btree ("observed_at");