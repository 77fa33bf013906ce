import { sql } from "drizzle-orm";
import { bigint, bigserial, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "../db/columns";
import { orders } from "../orders/schema";

export const shipmentSources = ["order-page", "csv-import"] as const;

/**
 * Parcels handed to a carrier (docs/decisions/0026-parcels-and-tracking-links.md): one row per carrier and tracking number an order ever
 * had. A corrected number is a new row; the one it replaces keeps its place with `supersededBy`, so
 * the order's page shows what the buyer was told and when. The unique key makes a repeated import
 * of the same line a no-op, even from two operators at once.
 */
export const shipments = pgTable(
  "shipments",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    /** A carrier id of `content/commerce/carriers.json`. */
    carrier: text("carrier").notNull(),
    /** As stored: upper case, without spaces, dots or dashes. */
    trackingNumber: text("tracking_number").notNull(),
    source: text("source").$type<(typeof shipmentSources)[number]>().notNull(),
    createdAt: createdAt(),
    /** The shipment whose carrier or number corrects this one's. */
    supersededBy: bigint("superseded_by", { mode: "number" }),
    supersededAt: timestamp("superseded_at", { withTimezone: true }),
  },
  (table) => [
    index("shipments_order_idx").on(table.orderId),
    uniqueIndex("shipments_parcel_unique").on(table.orderId, table.carrier, table.trackingNumber),
    check("shipments_source_check", sql`${table.source} in ('order-page','csv-import')`),
  ],
);
