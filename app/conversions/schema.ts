import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "../db/columns";
import { orders } from "../orders/schema";

/**
 * The conversions domain's one table: an order whose buyer gave marketing consent when it was
 * placed, with what the ad platforms need to match it to a click (docs/decisions/0046-server-side-conversions.md).
 * No row, no conversion: an order placed without consent is never reported.
 */
export const orderConversions = pgTable(
  "order_conversions",
  {
    orderId: uuid("order_id")
      .primaryKey()
      .references(() => orders.id),
    /** Meta's click id as its `fbc` parameter (`fb.1.<ms>.<fbclid>`), from the ad's `fbclid` or Meta's `_fbc` cookie. */
    fbc: text("fbc"),
    /** Google Analytics' client id from the `_ga` cookie, or a random one made for the order. */
    gaClientId: text("ga_client_id").notNull(),
    /** The page the order was placed on, origin and path only (a query may carry anything). */
    eventSourceUrl: text("event_source_url").notNull(),
    /** Personal data Meta needs for matching: kept only until the purchase is sent, then cleared. */
    clientAddress: text("client_address"),
    clientUserAgent: text("client_user_agent"),
    /** When the address and user agent were cleared (sent, or never to be sent). */
    deviceDataClearedAt: timestamp("device_data_cleared_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  // The sweep of stale device data reads only the rows not cleared yet, not every order ever reported.
  (table) => [index("order_conversions_uncleared_idx").on(table.createdAt).where(sql`${table.deviceDataClearedAt} is null`)],
);

export type OrderConversion = typeof orderConversions.$inferSelect;
