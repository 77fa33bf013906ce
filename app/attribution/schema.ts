import { integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "../db/columns";

/** The attribution domain's tables: each order's touch, and page views counted per touch. */

/**
 * The `orders` table as the touch's foreign key names it. The orders domain sits above attribution
 * (placing an order stores its touch in the same transaction), so this folder names the table the
 * way the database does instead of importing it, as the outbox does
 * (docs/decisions/0040-tables-in-their-domains.md). Not exported, so drizzle-kit takes it for no table.
 */
const ordersByName = pgTable("orders", { id: uuid("id").primaryKey() });

/** Where the visit that placed an order came from (docs/decisions/0045-the-touch-of-a-visit.md); one row per order. */
export const orderTouches = pgTable(
  "order_touches",
  {
    orderId: uuid("order_id")
      .primaryKey()
      .references(() => ordersByName.id),
    source: text("source").notNull(),
    medium: text("medium").notNull(),
    campaign: text("campaign").notNull().default(""),
    content: text("content").notNull().default(""),
    term: text("term").notNull().default(""),
    clickIdKind: text("click_id_kind"),
    clickId: text("click_id"),
    referrerHost: text("referrer_host"),
    landingPath: text("landing_path"),
    createdAt: createdAt(),
  },
  // No index beyond the key: the report joins every order of its range to its touch by the order's id.
);

/**
 * Funnel page views counted per touch, as the funnel's own counts are (docs/decisions/0017): one
 * row per day, step, source, medium, campaign and content, and nothing about the visitor.
 */
export const touchViews = pgTable(
  "touch_views",
  {
    day: text("day").notNull(),
    step: text("step").notNull(),
    market: text("market").notNull(),
    source: text("source").notNull(),
    medium: text("medium").notNull(),
    campaign: text("campaign").notNull(),
    content: text("content").notNull(),
    views: integer("views").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.step, table.market, table.source, table.medium, table.campaign, table.content] })],
);

export type OrderTouchRow = typeof orderTouches.$inferSelect;
