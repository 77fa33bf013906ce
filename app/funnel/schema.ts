import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * Funnel page views as counts only (docs/decisions/0017-funnel-counting.md): no cookie, no identifier, no address; one row
 * per day, funnel step, market and variant (`src`, empty when none).
 */
export const pageViews = pgTable(
  "page_views",
  {
    day: text("day").notNull(),
    step: text("step").notNull(),
    market: text("market").notNull(),
    src: text("src").notNull().default(""),
    views: integer("views").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.step, table.market, table.src] })],
);
