CREATE TABLE "order_touches" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"medium" text NOT NULL,
	"campaign" text DEFAULT '' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"term" text DEFAULT '' NOT NULL,
	"click_id_kind" text,
	"click_id" text,
	"referrer_host" text,
	"landing_path" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "touch_views" (
	"day" text NOT NULL,
	"step" text NOT NULL,
	"market" text NOT NULL,
	"source" text NOT NULL,
	"medium" text NOT NULL,
	"campaign" text NOT NULL,
	"content" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "touch_views_day_step_market_source_medium_campaign_content_pk" PRIMARY KEY("day","step","market","source","medium","campaign","content")
);
--> statement-breakpoint
ALTER TABLE "order_touches" ADD CONSTRAINT "order_touches_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_paid_idx" ON "orders" USING btree ("paid_at");