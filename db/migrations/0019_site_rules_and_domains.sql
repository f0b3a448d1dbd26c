CREATE TABLE "project_domains" (
	"host" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deploys" ADD COLUMN "rules" jsonb;--> statement-breakpoint
ALTER TABLE "project_domains" ADD CONSTRAINT "project_domains_slug_projects_slug_fk" FOREIGN KEY ("slug") REFERENCES "public"."projects"("slug") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "project_domains_slug_idx" ON "project_domains" USING btree ("slug");