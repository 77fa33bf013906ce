import { sql } from "drizzle-orm";
import { boolean, check, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "../db/columns";
import type { CountryCode, CurrencyCode } from "../market/markets";

export const codeKinds = ["percent", "amount"] as const;
export type CodeKind = (typeof codeKinds)[number];

/**
 * Discount codes: the ones operators create, and the welcome codes issued one per visitor. The
 * code is stored normalised (upper-case letters and digits), so a lookup is one equality.
 */
export const discountCodes = pgTable(
  "discount_codes",
  {
    id: uuid("id").primaryKey(),
    code: text("code").notNull().unique(),
    kind: text("kind").$type<CodeKind>().notNull(),
    /** For `percent`: 1 to 90. */
    percent: integer("percent"),
    /** For `amount`: minor units per currency; a currency without an entry does not take the code. */
    amountMinor: jsonb("amount_minor").$type<Partial<Record<CurrencyCode, number>>>().notNull().default({}),
    minimumMinor: jsonb("minimum_minor").$type<Partial<Record<CurrencyCode, number>>>().notNull().default({}),
    /** The markets it is valid in; empty for every market. */
    countries: jsonb("countries").$type<CountryCode[]>().notNull().default([]),
    validFrom: timestamp("valid_from", { withTimezone: true }),
    validUntil: timestamp("valid_until", { withTimezone: true }),
    maxRedemptions: integer("max_redemptions"),
    oncePerCustomer: boolean("once_per_customer").notNull().default(true),
    firstOrderOnly: boolean("first_order_only").notNull().default(false),
    active: boolean("active").notNull().default(true),
    /** Issued to one visitor by the offer's welcome section rather than created by an operator. */
    welcome: boolean("welcome").notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [
    check("discount_codes_kind_check", sql`${table.kind} in ('percent','amount')`),
    check("discount_codes_percent_check", sql`(${table.kind} = 'percent') = (${table.percent} is not null) and (${table.percent} is null or ${table.percent} between 1 and 90)`),
    check("discount_codes_max_check", sql`${table.maxRedemptions} is null or ${table.maxRedemptions} > 0`),
  ],
);
