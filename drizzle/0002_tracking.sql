CREATE TABLE "tracking_daily_bots" (
	"domain_id" uuid NOT NULL,
	"day" date NOT NULL,
	"bot_name" text NOT NULL,
	"bot_purpose" text NOT NULL,
	"is_ai_bot" boolean NOT NULL,
	"visits" bigint NOT NULL,
	CONSTRAINT "tracking_daily_bots_domain_id_day_bot_name_pk" PRIMARY KEY("domain_id","day","bot_name"),
	CONSTRAINT "tracking_daily_bots_visits_positive" CHECK ("tracking_daily_bots"."visits" > 0)
);
--> statement-breakpoint
CREATE TABLE "tracking_daily_citations" (
	"domain_id" uuid NOT NULL,
	"day" date NOT NULL,
	"engine" text NOT NULL,
	"citations" bigint NOT NULL,
	CONSTRAINT "tracking_daily_citations_domain_id_day_engine_pk" PRIMARY KEY("domain_id","day","engine"),
	CONSTRAINT "tracking_daily_citations_positive" CHECK ("tracking_daily_citations"."citations" > 0)
);
--> statement-breakpoint
CREATE TABLE "tracking_page_counts" (
	"domain_id" uuid NOT NULL,
	"path" text NOT NULL,
	"visits" bigint NOT NULL,
	CONSTRAINT "tracking_page_counts_domain_id_path_pk" PRIMARY KEY("domain_id","path"),
	CONSTRAINT "tracking_page_counts_visits_positive" CHECK ("tracking_page_counts"."visits" > 0)
);
--> statement-breakpoint
CREATE TABLE "visits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"domain_id" uuid NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"path" text NOT NULL,
	"user_agent" text NOT NULL,
	"ip" text,
	"referrer" text,
	"status" integer,
	"bot_name" text,
	"bot_purpose" text,
	"is_ai_bot" boolean DEFAULT false NOT NULL,
	"verification" text NOT NULL,
	"citation_engine" text,
	"citation_reason" text,
	"event_key" text NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visits_verification_valid" CHECK ("visits"."verification" in ('verified', 'unverified', 'unknown')),
	CONSTRAINT "visits_bot_or_citation" CHECK ("visits"."bot_name" is not null or "visits"."citation_engine" is not null)
);
--> statement-breakpoint
ALTER TABLE "tracking_daily_bots" ADD CONSTRAINT "tracking_daily_bots_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracking_daily_citations" ADD CONSTRAINT "tracking_daily_citations_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracking_page_counts" ADD CONSTRAINT "tracking_page_counts_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tracking_page_counts_top_idx" ON "tracking_page_counts" USING btree ("domain_id","visits" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "visits_domain_event_key_unique" ON "visits" USING btree ("domain_id","event_key");--> statement-breakpoint
CREATE INDEX "visits_citations_idx" ON "visits" USING btree ("domain_id","occurred_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "visits"."citation_engine" is not null;