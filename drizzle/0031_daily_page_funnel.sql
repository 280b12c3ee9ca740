-- The page funnel (GET /tracking/pages) per domain, UTC day and page, kept by the ingest statement like the other
-- rollups: a period's figures are read from at most (pages x days) rows instead of every visit of the period.
-- Reading the visits themselves took seconds for a domain with 2 million visits in a month.
CREATE TABLE "tracking_daily_pages" (
	"domain_id" uuid NOT NULL,
	"day" date NOT NULL,
	"page" text COLLATE "C" NOT NULL,
	"ai_crawls" bigint NOT NULL,
	"verified_ai_crawls" bigint DEFAULT 0 NOT NULL,
	"first_crawl_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tracking_daily_pages_domain_id_day_page_pk" PRIMARY KEY("domain_id","day","page"),
	CONSTRAINT "tracking_daily_pages_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "domains"("id") ON DELETE cascade,
	CONSTRAINT "tracking_daily_pages_crawls_positive" CHECK ("ai_crawls" > 0 AND "verified_ai_crawls" BETWEEN 0 AND "ai_crawls")
);
--> statement-breakpoint
CREATE TABLE "tracking_daily_page_citations" (
	"domain_id" uuid NOT NULL,
	"day" date NOT NULL,
	"page" text COLLATE "C" NOT NULL,
	"engine" text COLLATE "C" NOT NULL,
	"assistant" text COLLATE "C" NOT NULL,
	"citations" bigint NOT NULL,
	"first_cited_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tracking_daily_page_citations_pk" PRIMARY KEY("domain_id","day","page","engine","assistant"),
	CONSTRAINT "tracking_daily_page_citations_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "domains"("id") ON DELETE cascade,
	CONSTRAINT "tracking_daily_page_citations_positive" CHECK ("citations" > 0)
);
--> statement-breakpoint
INSERT INTO "tracking_daily_pages" ("domain_id", "day", "page", "ai_crawls", "verified_ai_crawls", "first_crawl_at")
SELECT v."domain_id", (v."occurred_at" AT TIME ZONE 'UTC')::date, split_part(v."path", '?', 1) COLLATE "C", count(*),
       count(*) FILTER (WHERE v."verification" = 'verified'), min(v."occurred_at")
FROM "visits" v JOIN "domains" d ON d."id" = v."domain_id"
WHERE v."is_ai_bot" AND v."citation_engine" IS NULL
GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "tracking_daily_page_citations" ("domain_id", "day", "page", "engine", "assistant", "citations", "first_cited_at")
SELECT v."domain_id", (v."occurred_at" AT TIME ZONE 'UTC')::date, split_part(v."path", '?', 1) COLLATE "C",
       v."citation_engine", coalesce(v."bot_name", '') COLLATE "C", count(*), min(v."occurred_at")
FROM "visits" v JOIN "domains" d ON d."id" = v."domain_id"
WHERE v."citation_engine" IS NOT NULL
GROUP BY 1, 2, 3, 4, 5;
