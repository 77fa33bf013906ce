ALTER TABLE "downloads" ADD COLUMN "first_byte" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "last_byte" bigint;--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "continues_id" bigint;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_continues_id_downloads_id_fk" FOREIGN KEY ("continues_id") REFERENCES "public"."downloads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "downloads_continues_unique" ON "downloads" USING btree ("continues_id");