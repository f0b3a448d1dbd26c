-- Searches of the lists (ILIKE %q%) on trigram indexes. pg_trgm is a trusted extension (PostgreSQL 13+):
-- the database owner may create it without superuser; PGlite loads it at open (db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "file_requests_note_trgm_idx" ON "file_requests" USING gin ("note" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "file_requests_id_trgm_idx" ON "file_requests" USING gin ("id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "share_groups_note_trgm_idx" ON "share_groups" USING gin ("note" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "share_groups_id_trgm_idx" ON "share_groups" USING gin ("id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_username_trgm_idx" ON "users" USING gin ("username" gin_trgm_ops);