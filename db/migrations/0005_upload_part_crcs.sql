CREATE TABLE "upload_part_crcs" (
	"pending_upload_id" uuid NOT NULL,
	"part_number" integer NOT NULL,
	"etag" text NOT NULL,
	"size" bigint NOT NULL,
	"crc32" bigint NOT NULL,
	CONSTRAINT "upload_part_crcs_pending_upload_id_part_number_pk" PRIMARY KEY("pending_upload_id","part_number")
);
--> statement-breakpoint
ALTER TABLE "upload_part_crcs" ADD CONSTRAINT "upload_part_crcs_pending_upload_id_pending_uploads_id_fk" FOREIGN KEY ("pending_upload_id") REFERENCES "public"."pending_uploads"("id") ON DELETE cascade ON UPDATE no action;