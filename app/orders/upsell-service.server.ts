import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database, Queryable, Transaction } from "../db/database.server";
import { orderLines, orders, payments, type UpsellLine } from "./schema";
import { outbox } from "../mail/schema";
import { marketForCountryCode } from "../market/markets";
import { quoteLine } from "./quote.server";
import { confirmationDelayMs, orderLineRow, recordEvent, type Order, type Payment } from "./order-records.server";

/**
 * Upsells add lines to the order the buyer just paid (decision 14): one line per step at most, the
 * same payment method charged again (or a short payment on the page when it cannot be), and the
 * one confirmation e-mail still to come listing everything.
 */

export const upsellSource = (step: string) => `upsell:${step}`;

export type UpsellState =
  /** The order may be offered this step's upsell. */
  | "open"
  /** This step's upsell is already on the order. */
  | "accepted"
  /** No upsell for this order any more: not paid, funnel ended, or its confirmation is on its way. */
  | "closed";

const upsellOrderStatuses = ["paid"] as const;

async function confirmationPending(db: Queryable, orderId: string): Promise<boolean> {
  const [row] = await db
    .select({ status: outbox.status })
    .from(outbox)
    .where(eq(outbox.dedupeKey, `order-confirmation:${orderId}`));
  return row?.status === "pending";
}

/** What the server lets this order do at this upsell step. */
export async function upsellState(db: Queryable, order: Order, step: string): Promise<UpsellState> {
  const [line] = await db
    .select({ id: orderLines.id })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, order.id), eq(orderLines.source, upsellSource(step))));
  if (line) return "accepted";
  if (!(upsellOrderStatuses as readonly string[]).includes(order.status) || order.funnelEndedAt) return "closed";
  return (await confirmationPending(db, order.id)) ? "open" : "closed";
}

export type BeginUpsellResult =
  | { kind: "pay"; payment: Payment }
  /** Another request of the same acceptance is paying: take its outcome. */
  | { kind: "in_progress"; payment: Payment }
  | { kind: "accepted" }
  | { kind: "closed" };

/** What the buyer accepted: the step and its bundle; the price is the server's, in the order's market. */
export interface UpsellAcceptance {
  line: { step: string; bundleId: string };
  digitalConsent: boolean;
  provider: string;
  method: string;
  returnPath: string;
  /** The day whose prices apply; today unless a test fixes it. */
  today?: Date;
}

/**
 * Opens the payment for accepting an upsell, once: the order row is locked while deciding, so a
 * double click or a replayed request finds the first attempt instead of charging again. The
 * confirmation e-mail is held back while the buyer is still paying for the upsell. The line is
 * priced and taxed here from the order's own market, never from the market of the page that asked:
 * every line of an order is in one currency and one country's VAT.
 */
export async function beginUpsell(db: Database, orderId: string, accepted: UpsellAcceptance): Promise<BeginUpsellResult> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    const market = order && marketForCountryCode(order.market);
    if (!order || market?.currency !== order.currency) return { kind: "closed" };
    const state = await upsellState(tx, order, accepted.line.step);
    if (state !== "open") return { kind: state };
    const line: Omit<UpsellLine, "digitalConsentAt"> = { step: accepted.line.step, ...quoteLine(market, accepted.line.bundleId, accepted.today ?? new Date()) };
    const purpose = upsellSource(line.step);
    const [open] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, order.id), eq(payments.purpose, purpose), inArray(payments.status, ["started", "requires_action", "processing"])))
      .orderBy(desc(payments.createdAt))
      .limit(1);
    if (open) return { kind: "in_progress", payment: open };
    const [{ attempts } = { attempts: 0 }] = await tx
      .select({ attempts: sql<number>`count(*)::int` })
      .from(payments)
      .where(and(eq(payments.orderId, order.id), eq(payments.purpose, purpose)));
    const [payment] = await tx
      .insert(payments)
      .values({
        id: randomUUID(),
        orderId: order.id,
        provider: accepted.provider,
        method: accepted.method,
        purpose,
        status: "started",
        amountMinor: line.grossMinor,
        currency: order.currency,
        idempotencyKey: `order:${order.id}:${purpose}:${attempts + 1}`,
        returnPath: accepted.returnPath,
        upsellLine: { ...line, digitalConsentAt: accepted.digitalConsent ? new Date().toISOString() : null },
      })
      .returning();
    await holdConfirmation(tx, order.id);
    await recordEvent(tx, order.id, "upsell_payment_started", { step: line.step, bundle: line.bundleId, amount: line.grossMinor, attempt: attempts + 1 });
    return { kind: "pay", payment: payment as Payment };
  });
}

/** Keeps the confirmation from going out while an upsell is being paid, so it lists the upsell too. */
async function holdConfirmation(tx: Transaction, orderId: string): Promise<void> {
  const notBefore = new Date(Date.now() + confirmationDelayMs);
  await tx
    .update(outbox)
    .set({ sendAfter: sql`greatest(${outbox.sendAfter}, ${notBefore})` })
    .where(and(eq(outbox.dedupeKey, `order-confirmation:${orderId}`), eq(outbox.status, "pending")));
}

/**
 * A succeeded upsell payment becomes its line on the order, with the order's totals, once: the
 * caller holds the payment and order rows locked, and the line's unique step guards the rest.
 */
export async function addUpsellLine(tx: Transaction, order: Order, payment: Payment): Promise<Order> {
  const line = payment.upsellLine;
  if (!line) throw new Error(`Payment ${payment.id} carries no upsell line`);
  const [added] = await tx
    .insert(orderLines)
    .values(orderLineRow(order.id, line, upsellSource(line.step), line.digitalConsentAt ? new Date(line.digitalConsentAt) : null))
    .onConflictDoNothing()
    .returning({ id: orderLines.id });
  if (!added) return order;
  const [updated] = await tx
    .update(orders)
    .set({
      itemsMinor: sql`${orders.itemsMinor} + ${line.grossMinor}`,
      vatMinor: sql`${orders.vatMinor} + ${line.vatMinor}`,
      totalMinor: sql`${orders.totalMinor} + ${line.grossMinor}`,
    })
    .where(eq(orders.id, order.id))
    .returning();
  await recordEvent(tx, order.id, "upsell_accepted", { step: line.step, bundle: line.bundleId, amount: line.grossMinor, payment: payment.id });
  return updated as Order;
}

/** The buyer said no thanks at this step: recorded for the funnel report, nothing else changes. */
export async function declineUpsell(db: Database, orderId: string, step: string): Promise<void> {
  await recordEvent(db, orderId, "upsell_declined", { step });
}

/** The latest attempt to pay for this step's upsell, to explain a failure on the page. */
export async function latestUpsellPayment(db: Queryable, orderId: string, step: string): Promise<Payment | undefined> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.purpose, upsellSource(step))))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return payment;
}
