-- Several named key pairs per account; a roll keeps the replaced pair working until expires_at.
ALTER TABLE "api_keys" ADD COLUMN "name" text DEFAULT 'Default' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "replaced_by_id" uuid;--> statement-breakpoint
DROP INDEX "api_keys_one_active_per_account";--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_active_name_unique" ON "api_keys" USING btree ("account_id","name") WHERE "api_keys"."revoked_at" is null and "api_keys"."expires_at" is null;--> statement-breakpoint
CREATE INDEX "api_keys_account_idx" ON "api_keys" USING btree ("account_id","created_at");--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_name_length" CHECK (char_length("api_keys"."name") between 1 and 60);--> statement-breakpoint
-- Every process's key cache empties when a pair's window changes too (a roll, a revocation of a rolling pair).
DROP TRIGGER "api_keys_changed_update" ON "api_keys";--> statement-breakpoint
CREATE TRIGGER api_keys_changed_update AFTER UPDATE ON "api_keys" FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.secret_hash IS DISTINCT FROM NEW.secret_hash
    OR OLD.rate_limit_per_minute IS DISTINCT FROM NEW.rate_limit_per_minute OR OLD.key_id IS DISTINCT FROM NEW.key_id
    OR OLD.account_id IS DISTINCT FROM NEW.account_id OR OLD.expires_at IS DISTINCT FROM NEW.expires_at)
  EXECUTE FUNCTION api_keys_changed();
