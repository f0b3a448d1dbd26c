ALTER TABLE "share_groups" ADD COLUMN "download_count" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "share_groups" ADD COLUMN "max_downloads" integer;--> statement-breakpoint
ALTER TABLE "share_items" ADD COLUMN "download_count" bigint DEFAULT 0 NOT NULL;