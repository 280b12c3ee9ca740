CREATE TABLE "email_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"purpose" text NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "email_tokens_purpose_valid" CHECK ("email_tokens"."purpose" in ('verify_email', 'reset_password'))
);
--> statement-breakpoint
CREATE TABLE "credit_purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"checkout_session_id" text NOT NULL,
	"payment_intent_id" text,
	"pack_id" text NOT NULL,
	"credits" integer NOT NULL,
	"amount_total" integer NOT NULL,
	"currency" text NOT NULL,
	"customer_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_purchases_credits_positive" CHECK ("credit_purchases"."credits" > 0),
	CONSTRAINT "credit_purchases_amount_non_negative" CHECK ("credit_purchases"."amount_total" >= 0)
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "signup_bonus_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "event_id" text;--> statement-breakpoint
ALTER TABLE "email_tokens" ADD CONSTRAINT "email_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_purchases" ADD CONSTRAINT "credit_purchases_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_tokens_token_hash_unique" ON "email_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "email_tokens_user_idx" ON "email_tokens" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_purchases_event_unique" ON "credit_purchases" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_purchases_session_unique" ON "credit_purchases" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE INDEX "credit_purchases_account_idx" ON "credit_purchases" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_event_unique" ON "credit_ledger" USING btree ("event_id") WHERE "credit_ledger"."event_id" is not null;