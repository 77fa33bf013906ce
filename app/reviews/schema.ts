import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "../db/columns";
import { orderLines, orders } from "../orders/schema";

/**
 * An invitation to review one product of an order, sent by e-mail some days after the order's
 * physical lines were fulfilled (a digital item: some days after its first download). Its link carries the row id
 * signed with the store's key, so nothing secret is stored; it works once and until `expiresAt`.
 */
export const reviewInvitations = pgTable(
  "review_invitations",
  {
    id: uuid("id").primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    orderLineId: bigint("order_line_id", { mode: "number" })
      .notNull()
      .unique()
      .references(() => orderLines.id),
    productId: text("product_id").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (table) => [index("review_invitations_order_idx").on(table.orderId)],
);

export const reviewStatuses = ["pending", "published", "rejected"] as const;
export type ReviewStatus = (typeof reviewStatuses)[number];

/**
 * A verified buyer's review: one per invitation, so one per order line. Operators publish or reject
 * it with a reason and never change its text.
 */
export const reviews = pgTable(
  "reviews",
  {
    id: uuid("id").primaryKey(),
    invitationId: uuid("invitation_id")
      .notNull()
      .unique()
      .references(() => reviewInvitations.id),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    orderLineId: bigint("order_line_id", { mode: "number" })
      .notNull()
      .references(() => orderLines.id),
    productId: text("product_id").notNull(),
    rating: integer("rating").notNull(),
    body: text("body").notNull(),
    /** The buyer's first name and the initial of their family name, as the review is shown. */
    displayName: text("display_name").notNull(),
    /** The language the review is shown in (`de`, `fr`, ...): that of the order's market. */
    language: text("language").notNull(),
    test: boolean("test").notNull(),
    status: text("status").$type<ReviewStatus>().notNull().default("pending"),
    /** Why an operator published or rejected it (a rule of the review policy, or a note). */
    moderationReason: text("moderation_reason"),
    moderatedAt: timestamp("moderated_at", { withTimezone: true }),
    moderatedBy: text("moderated_by"),
    createdAt: createdAt(),
  },
  (table) => [
    index("reviews_shown_idx").on(table.productId, table.language, table.status),
    check("reviews_rating_check", sql`${table.rating} between 1 and 5`),
    check("reviews_status_check", sql`${table.status} in ('pending','published','rejected')`),
  ],
);
