ALTER TABLE "webhook_deliveries" ADD COLUMN "response_body" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "leased_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "paused_reason" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "consecutive_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "consecutive_timeouts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_due_idx" ON "webhook_deliveries" USING btree ("webhook_id","next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';