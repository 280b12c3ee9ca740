-- People who run the service: they see the dashboard's operator page (integrations and the settings each needs).
-- Set and cleared by the admin CLI (`operator` / `unoperator`), never from the dashboard.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "is_operator" boolean DEFAULT false NOT NULL;
