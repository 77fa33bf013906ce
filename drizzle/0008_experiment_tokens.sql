ALTER TABLE "experiments" ADD COLUMN "primary_metric" text DEFAULT 'conversion' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "experiment_token" text;--> statement-breakpoint
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_primary_metric_check" CHECK ("experiments"."primary_metric" in ('conversion','revenue'));