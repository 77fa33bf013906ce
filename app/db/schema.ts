import { index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/**
 * The tables of the ground itself, which no domain owns: the store's own secrets and the rate limits'
 * shared counter. Every domain keeps its tables in its own `schema.ts` (docs/decisions/0040-tables-in-their-domains.md).
 */

/** Secrets the store makes for itself on first start (form-token signing). */
export const storeSecrets = pgTable("store_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: createdAt(),
});

/**
 * Requests counted per fixed window and client (rate limits shared by every instance on one
 * PostgreSQL). The key is `bucket:` and a keyed hash of the client's address, never the address
 * itself; rows are deleted once their window has expired.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    hits: integer("hits").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.key, table.windowStart] }), index("rate_limits_expires_idx").on(table.expiresAt)],
);
