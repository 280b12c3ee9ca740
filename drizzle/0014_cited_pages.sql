CREATE TABLE "tracking_cited_pages" (
	"domain_id" uuid NOT NULL,
	"day" date NOT NULL,
	"engine" text NOT NULL,
	"page" text NOT NULL,
	CONSTRAINT "tracking_cited_pages_domain_id_day_engine_page_pk" PRIMARY KEY("domain_id","day","engine","page")
);
--> statement-breakpoint
ALTER TABLE "tracking_cited_pages" ADD CONSTRAINT "tracking_cited_pages_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The pages already cited: from the stored citations, so the first citation.detected of each is not sent twice.
INSERT INTO "tracking_cited_pages" ("domain_id", "day", "engine", "page")
SELECT DISTINCT "domain_id", ("occurred_at" AT TIME ZONE 'UTC')::date, "citation_engine", split_part("path", '?', 1)
FROM "visits" WHERE "citation_engine" IS NOT NULL;
