-- An OAuth callback's `state` is accepted once: the hash of each one received is kept for a day (longer than the
-- state cookie lives), so a replayed callback finds it and is refused.
CREATE TABLE "oauth_states_used" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "oauth_states_used_used_at_idx" ON "oauth_states_used" USING btree ("used_at");
