-- Which method decided a visit's verification: a Web Bot Auth signature, the operator's published IP ranges, or
-- reverse DNS. Null while undecided, and for visits decided before the method was recorded. NOT VALID: the new
-- column is null in every existing row, so there is nothing to scan.
ALTER TABLE "visits" ADD COLUMN "verification_method" text;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_verification_method_valid"
  CHECK ("verification_method" IN ('signature', 'ip', 'rdns')) NOT VALID;--> statement-breakpoint
-- Of verified_visits, by the method that verified them (the rest were verified before methods were recorded).
ALTER TABLE "tracking_daily_bots" ADD COLUMN "signature_verified_visits" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking_daily_bots" ADD COLUMN "ip_verified_visits" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking_daily_bots" ADD COLUMN "rdns_verified_visits" bigint DEFAULT 0 NOT NULL;
