import { boolean, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "../../db/columns";

/**
 * The test gateway's own ledger: what a real provider would keep on its side. A call repeated
 * with the same idempotency key returns the stored result instead of charging again.
 */
export const testGatewayCharges = pgTable("test_gateway_charges", {
  id: text("id").primaryKey(),
  idempotencyKey: text("idempotency_key").notNull().unique(),
  method: text("method").notNull(),
  amountMinor: integer("amount_minor").notNull(),
  currency: text("currency").notNull(),
  status: text("status").notNull(),
  cardLast4: text("card_last4"),
  cardKind: text("card_kind"),
  /** Whether the buyer asked to keep the method for later charges. */
  saveMethod: boolean("save_method").notNull().default(false),
  returnUrl: text("return_url").notNull(),
  /** The saved card a later off-session charge may use (issued for reusable methods). */
  savedMethodId: text("saved_method_id"),
  declineCode: text("decline_code"),
  refundedMinor: integer("refunded_minor").notNull().default(0),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const testGatewayMethods = pgTable("test_gateway_methods", {
  id: text("id").primaryKey(),
  /** Which test card it is (its behaviour), never a card number. */
  cardKind: text("card_kind").notNull(),
  last4: text("last4").notNull(),
  createdAt: createdAt(),
});

export const testGatewayRefunds = pgTable("test_gateway_refunds", {
  id: text("id").primaryKey(),
  idempotencyKey: text("idempotency_key").notNull().unique(),
  chargeId: text("charge_id").notNull(),
  amountMinor: integer("amount_minor").notNull(),
  createdAt: createdAt(),
});
