-- The IP range lists crawler operators publish, fetched by the runner once a day: every process verifies bots
-- against them instead of the committed seed files' partial copies.
CREATE TABLE "bot_ip_range_feeds" (
	"source" text PRIMARY KEY NOT NULL,
	"feed" jsonb,
	"fetched_at" timestamp with time zone,
	"attempted_at" timestamp with time zone NOT NULL,
	"last_error" text
);
