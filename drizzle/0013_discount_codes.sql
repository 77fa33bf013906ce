CREATE TABLE "discount_codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"percent" integer,
	"amount_minor" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"minimum_minor" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"countries" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"valid_from" timestamp with time zone,
	"valid_until" timestamp with time zone,
	"max_redemptions" integer,
	"once_per_customer" boolean DEFAULT true NOT NULL,
	"first_order_only" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"welcome" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_codes_code_unique" UNIQUE("code"),
	CONSTRAINT "discount_codes_kind_check" CHECK ("discount_codes"."kind" in ('percent','amount')),
	CONSTRAINT "discount_codes_percent_check" CHECK (("discount_codes"."kind" = 'percent') = ("discount_codes"."percent" is not null) and ("discount_codes"."percent" is null or "discount_codes"."percent" between 1 and 90)),
	CONSTRAINT "discount_codes_max_check" CHECK ("discount_codes"."max_redemptions" is null or "discount_codes"."max_redemptions" > 0)
);
--> statement-breakpoint
CREATE TABLE "code_redemptions" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"code_id" uuid NOT NULL,
	"customer_key" text NOT NULL,
	"discount_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "code_redemptions_status_check" CHECK ("code_redemptions"."status" in ('reserved','kept','released')),
	CONSTRAINT "code_redemptions_discount_check" CHECK ("code_redemptions"."discount_minor" > 0)
);
--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "discount_minor" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "code_redemptions" ADD CONSTRAINT "code_redemptions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_redemptions" ADD CONSTRAINT "code_redemptions_code_id_discount_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."discount_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "code_redemptions_code_idx" ON "code_redemptions" USING btree ("code_id","status");--> statement-breakpoint
CREATE INDEX "code_redemptions_customer_idx" ON "code_redemptions" USING btree ("code_id","customer_key");--> statement-breakpoint
CREATE INDEX "orders_customer_key_idx" ON "orders" USING btree ((case when regexp_replace(lower(regexp_replace("email", '^\s+|\s+$', '', 'g')), '\+[^@]*@', '@') ~ '@(gmail|googlemail)\.com$' then replace(split_part(regexp_replace(lower(regexp_replace("email", '^\s+|\s+$', '', 'g')), '\+[^@]*@', '@'), '@', 1), '.', '') || '@gmail.com' else regexp_replace(lower(regexp_replace("email", '^\s+|\s+$', '', 'g')), '\+[^@]*@', '@') end));