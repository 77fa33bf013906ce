import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "../db/columns";

/** The mail domain's tables: the outbox and the per-recipient allowance. */

/**
 * The `orders` table as the outbox's foreign key names it. The orders domain sits above mail (it
 * writes to the outbox in its own transactions), so mail names the table the way the database does
 * instead of importing it (docs/decisions/0040-tables-in-their-domains.md). Not exported: drizzle-kit
 * takes its tables from the domains' exports, and this is no table of mail's.
 */
const ordersByName = pgTable("orders", { id: uuid("id").primaryKey() });

export const outboxStatuses = ["pending", "sent", "failed"] as const;

/** E-mails to send, written in the same transaction as the change they report (docs/decisions/0012-orders-and-database.md). */
export const outbox = pgTable(
  "outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    /** One message per key: `order-confirmation:<order id>`, `withdrawal:<id>`, ... */
    dedupeKey: text("dedupe_key").notNull().unique(),
    orderId: uuid("order_id").references(() => ordersByName.id),
    recipient: text("recipient").notNull(),
    locale: text("locale").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    status: text("status").$type<(typeof outboxStatuses)[number]>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    sendAfter: timestamp("send_after", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index("outbox_due_idx").on(table.status, table.sendAfter)],
);

/**
 * How many form e-mails (receipts of feedback, refund requests, withdrawals) went to one address
 * on one day, so that no address can be flooded from the forms; kept in the database so that every
 * instance counts the same. The address is kept only as a SHA-256 of its lower-cased form.
 */
export const mailRecipientDays = pgTable(
  "mail_recipient_days",
  {
    recipientHash: text("recipient_hash").notNull(),
    /** The UTC day, `2026-11-25`. */
    day: text("day").notNull(),
    count: integer("count").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.recipientHash, table.day] }), index("mail_recipient_days_day_idx").on(table.day)],
);
