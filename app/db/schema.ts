import { sql } from "drizzle-orm";
import { type AnyPgColumn, bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/**
 * The one schema of the store, for PGlite and PostgreSQL alike (DESIGN §10, §11). Money is in
 * integer minor units with its ISO currency; every change of an order's status is an event row.
 */

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

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
    index("orders_created_idx").on(table.createdAt),
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
 * A dispute (chargeback) the buyer's bank or PayPal opened on a payment: while one is open, the
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
    /** The provider's id of the dispute (Stripe `dp_…`, PayPal `PP-D-…`). */
    providerRef: text("provider_ref").notNull(),
    status: text("status").$type<"open" | "closed">().notNull(),
    /** The provider's word on how it ended (Stripe `won`, `lost`; PayPal `RESOLVED_SELLER_FAVOUR`, …). */
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

export const outboxStatuses = ["pending", "sent", "failed"] as const;

/** E-mails to send, written in the same transaction as the change they report (DESIGN §11). */
export const outbox = pgTable(
  "outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    /** One message per key: `order-confirmation:<order id>`, `withdrawal:<id>`, ... */
    dedupeKey: text("dedupe_key").notNull().unique(),
    orderId: uuid("order_id").references(() => orders.id),
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

/** Secrets the store makes for itself on first start (form-token signing). */
export const storeSecrets = pgTable("store_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: createdAt(),
});

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

export const operatorRoles = ["owner", "support"] as const;
export type OperatorRole = (typeof operatorRoles)[number];

/** The people who run the store: back-office accounts (DESIGN §13). */
export const operators = pgTable(
  "operators",
  {
    id: uuid("id").primaryKey(),
    /** Stored lower-cased: one account per address. */
    email: text("email").notNull().unique(),
    role: text("role").$type<OperatorRole>().notNull(),
    /** Argon2id, in its PHC string form (algorithm, parameters, salt and hash). */
    passwordHash: text("password_hash").notNull(),
    createdAt: createdAt(),
    lastLoginAt: timestamp("last_login_at", { withTimezone: true }),
  },
  (table) => [check("operators_role_check", sql`${table.role} in ('owner','support')`)],
);

/** Back-office sessions. The cookie holds a random token; only its SHA-256 is stored here. */
export const operatorSessions = pgTable(
  "operator_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    operatorId: uuid("operator_id")
      .notNull()
      .references(() => operators.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("operator_sessions_operator_idx").on(table.operatorId)],
);

/**
 * Failed back-office logins per address tried (known or not, so that the answer never tells which
 * addresses have an account): slowed after a few, then locked for a while.
 */
export const loginThrottle = pgTable("login_throttle", {
  email: text("email").primaryKey(),
  failures: integer("failures").notNull().default(0),
  lastFailureAt: timestamp("last_failure_at", { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
});

/** Every operator action, with who did it; an order's timeline shows those about it. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    operatorId: uuid("operator_id").references(() => operators.id, { onDelete: "set null" }),
    /** Kept as written when the action happened, so the log outlives the account. */
    operatorEmail: text("operator_email").notNull(),
    action: text("action").notNull(),
    orderId: uuid("order_id").references(() => orders.id),
    /** What was done, without a customer's personal data. */
    detail: jsonb("detail").$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (table) => [index("audit_log_order_idx").on(table.orderId), index("audit_log_created_idx").on(table.createdAt)],
);

/**
 * Funnel page views as counts only (DESIGN §14): no cookie, no identifier, no address; one row
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

export const shipmentSources = ["order-page", "csv-import"] as const;

/**
 * Parcels handed to a carrier (DESIGN §17): one row per carrier and tracking number an order ever
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

export const experimentStatuses = ["draft", "running", "stopped", "shipped"] as const;
export type ExperimentStatus = (typeof experimentStatuses)[number];

/** What a test's verdict is given on, chosen when it is created: one metric, so one family of comparisons. */
export const primaryMetrics = ["conversion", "revenue"] as const;
export type PrimaryMetric = (typeof primaryMetrics)[number];

/** One arm of a split test: a funnel path and its share of the traffic in percent. */
export interface ExperimentArmRow {
  path: string;
  weight: number;
}

/**
 * Split tests (DESIGN §18). The key seeds the assignment hash and names the experiment in the
 * `xp` query; arm numbers are positions in `arms`, the first being the control. Arms and weights
 * never change once the experiment has run, so an assigned visitor never changes arm.
 */
export const experiments = pgTable(
  "experiments",
  {
    key: text("key").primaryKey(),
    name: text("name").notNull(),
    /** A plain path of the route table (`/offer`); its locale twins are part of it. */
    entryPath: text("entry_path").notNull(),
    arms: jsonb("arms").$type<ExperimentArmRow[]>().notNull(),
    /** Only visitors of this market take part; every market when null. */
    market: text("market"),
    hypothesis: text("hypothesis").notNull().default(""),
    primaryMetric: text("primary_metric").$type<PrimaryMetric>().notNull().default("conversion"),
    status: text("status").$type<ExperimentStatus>().notNull(),
    shippedArm: integer("shipped_arm"),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    stoppedAt: timestamp("stopped_at", { withTimezone: true }),
  },
  (table) => [
    check("experiments_status_check", sql`${table.status} in ('draft','running','stopped','shipped')`),
    check("experiments_primary_metric_check", sql`${table.primaryMetric} in ('conversion','revenue')`),
    // One running test per entry path, whatever two operators do at once.
    uniqueIndex("experiments_running_entry_unique").on(table.entryPath).where(sql`${table.status} = 'running'`),
  ],
);

/**
 * Assignments made (exposures) and funnel page views per arm, as counts per day and market, with
 * the step for views (`exposure` for an assignment): nothing that tells two visitors apart.
 */
export const experimentCounts = pgTable(
  "experiment_counts",
  {
    experimentKey: text("experiment_key")
      .notNull()
      .references(() => experiments.key),
    arm: integer("arm").notNull(),
    day: text("day").notNull(),
    market: text("market").notNull(),
    step: text("step").notNull(),
    count: integer("count").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.experimentKey, table.arm, table.day, table.market, table.step] })],
);

/**
 * The files of digital products (DESIGN §17): one row per upload, per product and locale (empty for
 * the product's default file, which every locale without its own gets). The highest version of a
 * product and locale is the one delivered; older ones stay listed, so an operator sees what changed.
 */
export const digitalFiles = pgTable(
  "digital_files",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    productId: text("product_id").notNull(),
    /** A store locale (`de_DE`), or empty for the product's default file. */
    locale: text("locale").notNull().default(""),
    version: integer("version").notNull(),
    /** Where the storage keeps the bytes: a name the store made, never the uploaded file's name. */
    storageKey: text("storage_key").notNull().unique(),
    /** The name the buyer's download is saved under. */
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    bytes: bigint("bytes", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    /** The operator's address, or `command line`. */
    uploadedBy: text("uploaded_by").notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("digital_files_version_unique").on(table.productId, table.locale, table.version)],
);

/**
 * The download link of one digital order line. The link carries the row's id signed with the
 * store's key; nothing in this row could be replayed from a backup. Sending the links again gives
 * the same link fresh limits.
 */
export const downloadLinks = pgTable(
  "download_links",
  {
    id: uuid("id").primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    orderLineId: bigint("order_line_id", { mode: "number" })
      .notNull()
      .unique()
      .references(() => orderLines.id),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    maxDownloads: integer("max_downloads").notNull(),
    /** Downloads counted since the link was last issued. */
    downloadCount: integer("download_count").notNull().default(0),
    firstDownloadAt: timestamp("first_download_at", { withTimezone: true }),
    lastDownloadAt: timestamp("last_download_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [index("download_links_order_idx").on(table.orderId), check("download_links_count_check", sql`${table.downloadCount} >= 0`)],
);

/** Every download of a link: when, which line and file, and how many bytes went out; no address is kept. */
export const downloads = pgTable(
  "downloads",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    linkId: uuid("link_id")
      .notNull()
      .references(() => downloadLinks.id),
    orderLineId: bigint("order_line_id", { mode: "number" })
      .notNull()
      .references(() => orderLines.id),
    /** The file served; none for the generated test-mode delivery. */
    fileId: bigint("file_id", { mode: "number" }).references(() => digitalFiles.id),
    /** Whether this request started the file (counted) or resumed it with a range (not counted). */
    counted: boolean("counted").notNull(),
    /** The first and last byte asked for: a download that sent fewer bytes than that was cut off. */
    firstByte: bigint("first_byte", { mode: "number" }).notNull().default(0),
    lastByte: bigint("last_byte", { mode: "number" }),
    bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
    /** The cut-off download this one resumes without counting; each is resumed at most once. */
    continuesId: bigint("continues_id", { mode: "number" }).references((): AnyPgColumn => downloads.id),
    createdAt: createdAt(),
  },
  (table) => [index("downloads_link_idx").on(table.linkId), index("downloads_file_idx").on(table.fileId), uniqueIndex("downloads_continues_unique").on(table.continuesId)],
);
