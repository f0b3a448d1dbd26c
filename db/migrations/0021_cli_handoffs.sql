CREATE TABLE "cli_handoffs" (
	"device_hash" text PRIMARY KEY NOT NULL,
	"user_code_hash" text NOT NULL,
	"user_id" uuid,
	"approved_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cli_handoffs" ADD CONSTRAINT "cli_handoffs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cli_handoffs_user_code_hash_key" ON "cli_handoffs" USING btree ("user_code_hash");--> statement-breakpoint
CREATE INDEX "cli_handoffs_expires_at_idx" ON "cli_handoffs" USING btree ("expires_at");