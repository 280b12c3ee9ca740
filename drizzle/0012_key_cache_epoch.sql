CREATE TABLE "api_key_epoch" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "api_key_epoch" ("id", "version") VALUES (1, 0) ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE OR REPLACE FUNCTION api_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE api_key_epoch SET version = version + 1 WHERE id = 1;
  PERFORM pg_notify('api_keys_changed', coalesce(OLD.key_id, ''));
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER api_keys_changed_update AFTER UPDATE ON "api_keys" FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.secret_hash IS DISTINCT FROM NEW.secret_hash
    OR OLD.rate_limit_per_minute IS DISTINCT FROM NEW.rate_limit_per_minute OR OLD.key_id IS DISTINCT FROM NEW.key_id
    OR OLD.account_id IS DISTINCT FROM NEW.account_id)
  EXECUTE FUNCTION api_keys_changed();--> statement-breakpoint
CREATE TRIGGER api_keys_changed_delete AFTER DELETE ON "api_keys" FOR EACH ROW EXECUTE FUNCTION api_keys_changed();
