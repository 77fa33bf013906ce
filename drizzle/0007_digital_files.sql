CREATE TABLE "digital_files" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL,
	"locale" text DEFAULT '' NOT NULL,
	"version" integer NOT NULL,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"uploaded_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "digital_files_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "download_links" (
	"id" uuid PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"order_line_id" bigint NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"max_downloads" integer NOT NULL,
	"download_count" integer DEFAULT 0 NOT NULL,
	"first_download_at" timestamp with time zone,
	"last_download_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "download_links_order_line_id_unique" UNIQUE("order_line_id"),
	CONSTRAINT "download_links_count_check" CHECK ("download_links"."download_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "downloads" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"link_id" uuid NOT NULL,
	"order_line_id" bigint NOT NULL,
	"file_id" bigint,
	"counted" boolean NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "download_links" ADD CONSTRAINT "download_links_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_links" ADD CONSTRAINT "download_links_order_line_id_order_lines_id_fk" FOREIGN KEY ("order_line_id") REFERENCES "public"."order_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_link_id_download_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."download_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_order_line_id_order_lines_id_fk" FOREIGN KEY ("order_line_id") REFERENCES "public"."order_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_file_id_digital_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."digital_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "digital_files_version_unique" ON "digital_files" USING btree ("product_id","locale","version");--> statement-breakpoint
CREATE INDEX "download_links_order_idx" ON "download_links" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "downloads_link_idx" ON "downloads" USING btree ("link_id");--> statement-breakpoint
CREATE INDEX "downloads_file_idx" ON "downloads" USING btree ("file_id");