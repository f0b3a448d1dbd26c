-- Mail goes only to a confirmed address (issue 39, item 3). Addresses stored before this were never
-- confirmed: they stay unconfirmed, and their owners confirm them from /files (Resend).
ALTER TABLE "users" ADD COLUMN "email_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_token_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_token_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_token_hash_key" ON "users" USING btree ("email_token_hash");