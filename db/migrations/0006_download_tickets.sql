CREATE TABLE "share_download_tickets" (
	"group_id" text NOT NULL,
	"target" text NOT NULL,
	"client_id" text NOT NULL,
	"client_addr" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "share_download_tickets_group_id_target_client_id_pk" PRIMARY KEY("group_id","target","client_id")
);
--> statement-breakpoint
ALTER TABLE "share_download_tickets" ADD CONSTRAINT "share_download_tickets_group_id_share_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."share_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "share_download_tickets_addr_idx" ON "share_download_tickets" USING btree ("group_id","target","client_addr");--> statement-breakpoint
CREATE INDEX "share_download_tickets_expires_idx" ON "share_download_tickets" USING btree ("expires_at");