ALTER TABLE "download_activity" ADD COLUMN "dl_key" text;--> statement-breakpoint
ALTER TABLE "download_activity" ADD COLUMN "size" bigint;--> statement-breakpoint
ALTER TABLE "download_activity" ADD COLUMN "covered" "int8multirange";--> statement-breakpoint
ALTER TABLE "download_activity" ADD COLUMN "last_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "download_activity" ADD COLUMN "notified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "share_download_tickets" ADD COLUMN "bytes_served" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "download_activity_key_idx" ON "download_activity" USING btree ("group_id","dl_key");--> statement-breakpoint
-- Rows from before: each its own closed download, last seen when it was written.
UPDATE "download_activity" SET "last_at" = "created_at";
