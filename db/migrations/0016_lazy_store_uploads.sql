ALTER TABLE "pending_uploads" ADD COLUMN "store_upload_id" text;--> statement-breakpoint
-- Sessions from before started their store upload at init, under the id the client holds.
UPDATE "pending_uploads" SET "store_upload_id" = "upload_id";
