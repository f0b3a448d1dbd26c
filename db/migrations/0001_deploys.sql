CREATE TABLE "deploys" (
	"id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"created_by" text DEFAULT '' NOT NULL,
	"file_count" integer NOT NULL,
	"total_bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "hosted_files_slug_path_key";--> statement-breakpoint
DROP INDEX "hosted_files_online_slug_idx";--> statement-breakpoint
ALTER TABLE "hosted_files" ADD COLUMN "deploy_id" text;--> statement-breakpoint
ALTER TABLE "hosted_files" ADD COLUMN "path_key" text;--> statement-breakpoint
ALTER TABLE "hosted_files" ADD COLUMN "encodings" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "active_deploy_id" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "spa" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "allow_dotfiles" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Existing projects: their files become their first (live) deploy.
INSERT INTO "deploys" ("id", "slug", "created_by", "file_count", "total_bytes", "created_at")
  SELECT substr(md5(p."slug" || random()::text), 1, 12), p."slug", '', count(f."id"), coalesce(sum(f."size"), 0), p."updated_at"
  FROM "projects" p LEFT JOIN "hosted_files" f ON f."slug" = p."slug" GROUP BY p."slug", p."updated_at";--> statement-breakpoint
UPDATE "projects" p SET "active_deploy_id" = d."id" FROM "deploys" d WHERE d."slug" = p."slug";--> statement-breakpoint
UPDATE "hosted_files" f SET "deploy_id" = p."active_deploy_id", "path_key" = lower(normalize(f."path", NFC)) FROM "projects" p WHERE p."slug" = f."slug";--> statement-breakpoint
UPDATE "hosted_files" f SET "path_key" = f."path_key" || '#' || f."id"
  WHERE EXISTS (SELECT 1 FROM "hosted_files" g WHERE g."deploy_id" = f."deploy_id" AND g."path_key" = f."path_key" AND g."id" < f."id");--> statement-breakpoint
ALTER TABLE "hosted_files" ALTER COLUMN "deploy_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "hosted_files" ALTER COLUMN "path_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "deploys" ADD CONSTRAINT "deploys_slug_projects_slug_fk" FOREIGN KEY ("slug") REFERENCES "public"."projects"("slug") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "deploys_slug_created_at_idx" ON "deploys" USING btree ("slug","created_at");--> statement-breakpoint
ALTER TABLE "hosted_files" ADD CONSTRAINT "hosted_files_deploy_id_deploys_id_fk" FOREIGN KEY ("deploy_id") REFERENCES "public"."deploys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hosted_files_deploy_path_key" ON "hosted_files" USING btree ("deploy_id","path_key");--> statement-breakpoint
CREATE INDEX "hosted_files_storage_key_idx" ON "hosted_files" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "hosted_files_slug_idx" ON "hosted_files" USING btree ("slug");