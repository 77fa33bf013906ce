CREATE TABLE "mail_recipient_days" (
	"recipient_hash" text NOT NULL,
	"day" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "mail_recipient_days_recipient_hash_day_pk" PRIMARY KEY("recipient_hash","day")
);
--> statement-breakpoint
CREATE INDEX "mail_recipient_days_day_idx" ON "mail_recipient_days" USING btree ("day");