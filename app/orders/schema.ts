import { sql } from "drizzle-orm";
import { bigserial, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { discountCodes } from "../codes/schema";
import { createdAt } from "../db/columns";
import { customerKeySql } from "./customer-key";

/**
 * The orders domain's tables: orders, their lines, payments, refunds, disputes and the event log,
 * and what buyers send about an order. Money is in integer minor units with its ISO currency; every
 * change of an order's status is an event row (docs/decisions/0012-orders-and-database.md).
 */

export const orderStatuses = [
  "pending_payment",
  "paid",
  "payment_failed",
  "fulfilled",
  "partially_refunded",
  "refunded",
  "withdrawn",
  "cancelled",
] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey(),
    number: text("number").notNull().unique(),
    status: text("status").$type<OrderStatus>().notNull(),
    /** The market's country code (`CH-FR`), its locale and currency when the order was placed. */
    market: text("market").notNull(),
    locale: text("locale").notNull(),
    currency: text("currency").notNull(),
    // The order keeps its own copy of whom it was sold to and where it goes.
    email: text("email").notNull(),
    givenName: text("given_name").notNull(),
    familyName: text("family_name").notNull(),
    addressLine1: text("address_line1").notNull(),
    addressLine2: text("address_line2").notNull().default(""),
    postalCode: text("postal_code").notNull(),
    city: text("city").notNull(),
    /** ISO 3166-1 alpha-2 of the delivery address. */
    country: text("country").notNull(),
    phone: text("phone").notNull().default(""),
    itemsMinor: integer("items_minor").notNull(),
    deliveryMinor: integer("delivery_minor").notNull(),
    deliveryVatRateBp: integer("delivery_vat_rate_bp").notNull(),
    totalMinor: integer("total_minor").notNull(),
    vatMinor: integer("vat_minor").notNull(),
    /** The token of the checkout form that created the order: a resubmission finds it again. */
    checkoutToken: text("checkout_token").notNull().unique(),
    funnelSrc: text("funnel_src"),
    /** The split-test arm the buyer was in (`k3j9x2ab.1`), kept only when `xp` carried a valid exposure token. */
    experimentArm: text("experiment_arm"),
    /** The signed token of the exposure the order came from: one order counts per token. */
    experimentToken: text("experiment_token"),
    test: boolean("test").notNull(),
    createdAt: createdAt(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    funnelEndedAt: timestamp("funnel_ended_at", { withTimezone: true }),
    /** When the warehouse was told to ship it; kept when a refund later changes the status. */
    fulfilledAt: timestamp("fulfilled_at", { withTimezone: true }),
    /** When the buyer's personal fields were anonymised on request (GDPR Art. 17). */
    erasedAt: timestamp("erased_at", { withTimezone: true }),
  },
  (table) => [
    index("orders_email_idx").on(sql`lower(${table.email})`),
    index("orders_customer_key_idx").on(customerKeySql(table.email)),
    index("orders_created_idx").on(table.createdAt),
    // The reports take the orders paid in a range (the attribution report, docs/decisions/0045).
    index("orders_paid_idx").on(table.paidAt),
    index("orders_experiment_arm_idx").on(table.experimentArm),
    check("orders_status_check", sql`${table.status} in ('pending_payment','paid','payment_failed','fulfilled','partially_refunded','refunded','withdrawn','cancelled')`),
    check("orders_amounts_check", sql`${table.totalMinor} >= 0 and ${table.vatMinor} >= 0 and ${table.itemsMinor} >= 0 and ${table.deliveryMinor} >= 0`),
  ],
);

export const orderLines = pgTable(
  "order_lines",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    bundleId: text("bundle_id").notNull(),
    productId: text("product_id").notNull(),
    productName: text("product_name").notNull(),
    kind: text("kind").$type<"supplement" | "digital">().notNull(),
    units: integer("units").notNull(),
    grossMinor: integer("gross_minor").notNull(),
    vatRateBp: integer("vat_rate_bp").notNull(),
    vatMinor: integer("vat_minor").notNull(),
    /** The share of the order's code this line carries: `grossMinor` and `vatMinor` are after it. */
    discountMinor: integer("discount_minor").notNull().default(0),
    /** Where the line was sold: `checkout`, or the upsell step that added it. */
    source: text("source").notNull(),
    /** When the buyer consented to immediate delivery of a digital item (withdrawal right lapses). */
    digitalConsentAt: timestamp("digital_consent_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index("order_lines_order_idx").on(table.orderId),
    // One line per step: a replayed upsell acceptance can never add a second line.
    uniqueIndex("order_lines_step_unique").on(table.orderId, table.source),
  ],
);

/** The line an accepted upsell adds to its order, priced and consented when the buyer accepted. */
export interface UpsellLine {
  /** The upsell page's step (its plain route path), which is also the line's source. */
  step: string;
  bundleId: string;
  productId: string;
  productName: string;
  kind: "supplement" | "digital";
  units: number;
  grossMinor: number;
  vatRateBp: number;
  vatMinor: number;
  digitalConsentAt: string | null;
}

export const paymentStatuses = ["started", "requires_action", "processing", "succeeded", "declined", "cancelled"] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    provider: text("provider").notNull(),
    method: text("method").notNull(),
    purpose: text("purpose").notNull(),
    status: text("status").$type<PaymentStatus>().notNull(),
    amountMinor: integer("amount_minor").notNull(),
    currency: text("currency").notNull(),
    /** Sent with every call to the provider for this payment: a retry never charges twice. */
    idempotencyKey: text("idempotency_key").notNull().unique(),
    providerRef: text("provider_ref"),
    /** A method the provider keeps for charging again (upsells), when the buyer's method allows it. */
    reusableMethodRef: text("reusable_method_ref"),
    failureCode: text("failure_code"),
    /** The page (path and funnel query, never personal data) the buyer paid on and returns to after the provider's pages. */
    returnPath: text("return_path").notNull(),
    /** For an upsell payment: the line it adds to the order once it succeeds, priced when accepted. */
    upsellLine: jsonb("upsell_line").$type<UpsellLine>(),
    /**
     * What the first call to the provider sent for this attempt (its tokens, never card fields), so
     * a replay under the same idempotency key sends exactly that again, whatever the buyer sends later.
     * It names the buyer (e-mail, name, country): cleared once the attempt settles, and on erasure.
     */
    providerRequest: jsonb("provider_request").$type<Record<string, unknown>>(),
    /** The buyer paid another way while this attempt was open: it is cancelled at the provider too. */
    supersededAt: timestamp("superseded_at", { withTimezone: true }),
    /** When the provider confirmed that the superseded attempt can take no more money. */
    providerClosedAt: timestamp("provider_closed_at", { withTimezone: true }),
    /** A refund of money the provider took for this attempt after the store had closed it. */
    strayRefundRef: text("stray_refund_ref"),
    /** When the reconciler last asked the provider about this attempt. */
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("payments_order_idx").on(table.orderId), index("payments_open_idx").on(table.status, table.updatedAt)],
);

/**
 * Money given back, one row per payment it goes back to. A request carries its own key, so the
 * same refund sent twice (a double click in the back office) is one refund at the provider.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: uuid("id").primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id),
    amountMinor: integer("amount_minor").notNull(),
    /** The order lines this refund gives back; empty for an amount not tied to lines (delivery). */
    lineIds: jsonb("line_ids").$type<number[]>().notNull().default([]),
    reason: text("reason").notNull(),
    /**
     * `order`: money given back of what the order took. `stray`: a charge the store had not wanted
     * (a closed attempt charged anyway) given back; kept out of the order's totals, but settled by
     * the provider's events and the poll like any other refund.
     */
    kind: text("kind").$type<"order" | "stray">().notNull().default("order"),
    status: text("status").$type<"pending" | "succeeded" | "failed">().notNull(),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    providerRef: text("provider_ref"),
    failureReason: text("failure_reason"),
    createdAt: createdAt(),
  },
  (table) => [index("refunds_order_idx").on(table.orderId)],
);

/**
 * A dispute (chargeback) the buyer's bank or wallet opened on a payment: while one is open, the
 * order is held out of fulfilment. Stored by the provider's dispute id, so a repeated or late event
 * finds it; a dispute never reopens once closed.
 */
export const disputes = pgTable(
  "disputes",
  {
    id: uuid("id").primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id),
    provider: text("provider").notNull(),
    /** The provider's id of the dispute. */
    providerRef: text("provider_ref").notNull(),
    status: text("status").$type<"open" | "closed">().notNull(),
    /** The provider's word on how it ended, as its webhook module reads it (`payments/dispute-outcomes.ts` lists those that mean lost). */
    outcome: text("outcome"),
    createdAt: createdAt(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
  },
  (table) => [uniqueIndex("disputes_provider_ref_unique").on(table.provider, table.providerRef), index("disputes_order_idx").on(table.orderId)],
);

export const orderEvents = pgTable(
  "order_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    type: text("type").notNull(),
    fromStatus: text("from_status"),
    toStatus: text("to_status"),
    /** What happened, without personal data: amounts, payment ids, codes. */
    detail: jsonb("detail").$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (table) => [index("order_events_order_idx").on(table.orderId)],
);

export const redemptionStatuses = ["reserved", "kept", "released"] as const;
export type RedemptionStatus = (typeof redemptionStatuses)[number];

/**
 * The code an order redeemed: reserved when the order is placed, kept when it is paid, released
 * when it is not. Reserved and kept rows count against the code's limits; one code per order.
 */
export const codeRedemptions = pgTable(
  "code_redemptions",
  {
    orderId: uuid("order_id")
      .primaryKey()
      .references(() => orders.id),
    codeId: uuid("code_id")
      .notNull()
      .references(() => discountCodes.id),
    /** The buyer's normalised e-mail: once-per-customer codes count by it. */
    customerKey: text("customer_key").notNull(),
    discountMinor: integer("discount_minor").notNull(),
    currency: text("currency").notNull(),
    status: text("status").$type<RedemptionStatus>().notNull(),
    createdAt: createdAt(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (table) => [
    index("code_redemptions_code_idx").on(table.codeId, table.status),
    index("code_redemptions_customer_idx").on(table.codeId, table.customerKey),
    check("code_redemptions_status_check", sql`${table.status} in ('reserved','kept','released')`),
    check("code_redemptions_discount_check", sql`${table.discountMinor} > 0`),
  ],
);

export const withdrawals = pgTable("withdrawals", {
  id: uuid("id").primaryKey(),
  reference: text("reference").notNull().unique(),
  name: text("name").notNull(),
  orderNumber: text("order_number").notNull(),
  email: text("email").notNull(),
  /** Set when the order number and e-mail address agree with an order. */
  orderId: uuid("order_id").references(() => orders.id),
  locale: text("locale").notNull(),
  status: text("status").notNull().default("received"),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

export const refundRequests = pgTable("refund_requests", {
  id: uuid("id").primaryKey(),
  orderNumber: text("order_number").notNull(),
  email: text("email").notNull(),
  reason: text("reason").notNull(),
  message: text("message").notNull(),
  orderId: uuid("order_id").references(() => orders.id),
  locale: text("locale").notNull(),
  status: text("status").notNull().default("open"),
  createdAt: createdAt(),
});

export const feedback = pgTable("feedback", {
  id: uuid("id").primaryKey(),
  rating: integer("rating").notNull(),
  comment: text("comment").notNull(),
  email: text("email"),
  locale: text("locale").notNull(),
  createdAt: createdAt(),
});

/**
 * Payment provider webhooks as received: stored by the provider's event id, so a delivery
 * repeated by the provider is recognised and applied once. Only what the store acted on is kept,
 * never the provider's payload (it holds personal data).
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    providerRef: text("provider_ref"),
    receivedAt: createdAt(),
    appliedAt: timestamp("applied_at", { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.provider, table.eventId] })],
);
