CREATE TABLE "file_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"password_hash" text,
	"expires_at" timestamp with time zone,
	"status" text DEFAULT 'open' NOT NULL,
	"max_files" integer,
	"max_bytes" bigint,
	"max_uploads" integer,
	"require_name" boolean DEFAULT false NOT NULL,
	"allowed_types" text[],
	"upload_count" integer DEFAULT 0 NOT NULL,
	"received_bytes" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "share_groups" ADD COLUMN "request_id" text;--> statement-breakpoint
ALTER TABLE "share_groups" ADD COLUMN "upload_token_hash" text;--> statement-breakpoint
ALTER TABLE "share_groups" ADD COLUMN "received_name" text;--> statement-breakpoint
ALTER TABLE "share_groups" ADD COLUMN "received_email" text;--> statement-breakpoint
ALTER TABLE "share_groups" ADD COLUMN "received_message" text;--> statement-breakpoint
ALTER TABLE "file_requests" ADD CONSTRAINT "file_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_requests_user_created_idx" ON "file_requests" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "file_requests_created_idx" ON "file_requests" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "share_groups_upload_token_hash_key" ON "share_groups" USING btree ("upload_token_hash");--> statement-breakpoint
CREATE INDEX "share_groups_request_id_idx" ON "share_groups" USING btree ("request_id");