CREATE TABLE "experiment_counts" (
	"experiment_key" text NOT NULL,
	"arm" integer NOT NULL,
	"day" text NOT NULL,
	"market" text NOT NULL,
	"step" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "experiment_counts_experiment_key_arm_day_market_step_pk" PRIMARY KEY("experiment_key","arm","day","market","step")
);
--> statement-breakpoint
CREATE TABLE "experiments" (
	"key" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"entry_path" text NOT NULL,
	"arms" jsonb NOT NULL,
	"market" text,
	"hypothesis" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"shipped_arm" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	CONSTRAINT "experiments_status_check" CHECK ("experiments"."status" in ('draft','running','stopped','shipped'))
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "experiment_arm" text;--> statement-breakpoint
ALTER TABLE "experiment_counts" ADD CONSTRAINT "experiment_counts_experiment_key_experiments_key_fk" FOREIGN KEY ("experiment_key") REFERENCES "public"."experiments"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "experiments_running_entry_unique" ON "experiments" USING btree ("entry_path") WHERE "experiments"."status" = 'running';--> statement-breakpoint
CREATE INDEX "orders_experiment_arm_idx" ON "orders" USING btree ("experiment_arm");