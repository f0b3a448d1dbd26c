CREATE TABLE "concepts" (
	"id" text PRIMARY KEY NOT NULL,
	"document" jsonb NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hosted_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"path" text NOT NULL,
	"storage_key" text NOT NULL,
	"size" bigint NOT NULL,
	"content_type" text NOT NULL,
	"etag" text NOT NULL,
	"status" text DEFAULT 'online' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pending_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"group_id" text NOT NULL,
	"user_id" uuid,
	"upload_id" text NOT NULL,
	"storage_key" text NOT NULL,
	"part_count" integer NOT NULL,
	"client_path" text NOT NULL,
	"relative_path" text NOT NULL,
	"declared_size" bigint NOT NULL,
	"content_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"slug" text PRIMARY KEY NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"password_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"credential_tag" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "share_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"note" text DEFAULT '' NOT NULL,
	"password_hash" text,
	"expires_at" timestamp with time zone,
	"status" text DEFAULT 'offline' NOT NULL,
	"upload_state" text DEFAULT 'pending' NOT NULL,
	"upload_mode" text DEFAULT 'proxy' NOT NULL,
	"part_size" integer DEFAULT 50331648 NOT NULL,
	"reserved_bytes" bigint DEFAULT 0 NOT NULL,
	"total_bytes" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "share_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"group_id" text NOT NULL,
	"relative_path" text NOT NULL,
	"path_key" text NOT NULL,
	"storage_key" text NOT NULL,
	"size" bigint NOT NULL,
	"content_type" text NOT NULL,
	"etag" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "storage_gc" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"prefix" text NOT NULL,
	"not_before" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"quota_bytes" bigint NOT NULL,
	"used_bytes" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hosted_files" ADD CONSTRAINT "hosted_files_slug_projects_slug_fk" FOREIGN KEY ("slug") REFERENCES "public"."projects"("slug") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "pending_uploads" ADD CONSTRAINT "pending_uploads_group_id_share_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."share_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_uploads" ADD CONSTRAINT "pending_uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_groups" ADD CONSTRAINT "share_groups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_items" ADD CONSTRAINT "share_items_group_id_share_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."share_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "concepts_tags_idx" ON "concepts" USING gin ("tags");--> statement-breakpoint
CREATE UNIQUE INDEX "hosted_files_slug_path_key" ON "hosted_files" USING btree ("slug","path");--> statement-breakpoint
CREATE INDEX "hosted_files_online_slug_idx" ON "hosted_files" USING btree ("slug") WHERE "hosted_files"."status" = 'online';--> statement-breakpoint
CREATE UNIQUE INDEX "pending_uploads_upload_id_key" ON "pending_uploads" USING btree ("upload_id","storage_key");--> statement-breakpoint
CREATE INDEX "pending_uploads_group_id_idx" ON "pending_uploads" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "pending_uploads_created_at_idx" ON "pending_uploads" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "projects_created_at_idx" ON "projects" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "rate_limits_window_start_idx" ON "rate_limits" USING btree ("window_start");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_at_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "share_groups_user_id_idx" ON "share_groups" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "share_groups_pending_idx" ON "share_groups" USING btree ("created_at") WHERE "share_groups"."upload_state" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "share_items_group_path_key" ON "share_items" USING btree ("group_id","path_key");--> statement-breakpoint
CREATE UNIQUE INDEX "share_items_group_relative_path_key" ON "share_items" USING btree ("group_id","relative_path");--> statement-breakpoint
CREATE INDEX "storage_gc_not_before_idx" ON "storage_gc" USING btree ("not_before");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_key" ON "users" USING btree ("username");--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at");