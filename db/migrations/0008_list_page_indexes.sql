DROP INDEX "projects_created_at_idx";--> statement-breakpoint
DROP INDEX "share_groups_user_id_idx";--> statement-breakpoint
DROP INDEX "users_created_at_idx";--> statement-breakpoint
CREATE INDEX "projects_created_at_slug_idx" ON "projects" USING btree ("created_at","slug");--> statement-breakpoint
CREATE INDEX "share_groups_user_id_created_at_id_idx" ON "share_groups" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "share_groups_created_at_id_idx" ON "share_groups" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_created_at_id_idx" ON "users" USING btree ("created_at","id");