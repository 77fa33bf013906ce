CREATE TABLE "order_conversions" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"fbc" text,
	"ga_client_id" text NOT NULL,
	"event_source_url" text NOT NULL,
	"client_address" text,
	"client_user_agent" text,
	"device_data_cleared_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_conversions" ADD CONSTRAINT "order_conversions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;