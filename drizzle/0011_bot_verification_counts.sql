ALTER TABLE "tracking_daily_bots" ADD COLUMN "verified_visits" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking_daily_bots" ADD COLUMN "spoofed_visits" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Backfill from the stored visits (the rollup held only totals until now).
UPDATE "tracking_daily_bots" AS t SET "verified_visits" = v.verified, "spoofed_visits" = v.spoofed
FROM (
  SELECT "domain_id", ("occurred_at" AT TIME ZONE 'UTC')::date AS day, "bot_name",
         count(*) FILTER (WHERE "verification" = 'verified') AS verified,
         count(*) FILTER (WHERE "verification" = 'unverified') AS spoofed
  FROM "visits" WHERE "bot_name" IS NOT NULL GROUP BY 1, 2, 3
) AS v
WHERE t."domain_id" = v."domain_id" AND t."day" = v.day AND t."bot_name" = v."bot_name";
