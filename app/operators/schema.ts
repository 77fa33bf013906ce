import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "../db/columns";
import { orders } from "../orders/schema";

export const operatorRoles = ["owner", "support"] as const;
export type OperatorRole = (typeof operatorRoles)[number];

/** The people who run the store: back-office accounts (docs/decisions/0016-back-office-rendered-on-the-server.md). */
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
