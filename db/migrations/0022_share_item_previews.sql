ALTER TABLE "share_items" ADD COLUMN "preview_state" text DEFAULT 'pending';--> statement-breakpoint
ALTER TABLE "share_items" ADD COLUMN "preview_key" text;--> statement-breakpoint
ALTER TABLE "share_items" ADD COLUMN "preview_width" integer;--> statement-breakpoint
ALTER TABLE "share_items" ADD COLUMN "preview_height" integer;--> statement-breakpoint
ALTER TABLE "share_items" ADD COLUMN "duration_ms" integer;--> statement-breakpoint
ALTER TABLE "share_items" ADD COLUMN "preview_leased_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "share_items" ADD COLUMN "preview_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "share_items_preview_pending" ON "share_items" USING btree ("created_at") WHERE "share_items"."preview_state" = 'pending';