import { and, asc, desc, eq } from "drizzle-orm";
import type { Queryable, Transaction } from "../db/database.server";
import { orderEvents, orderLines, orders, payments, type OrderStatus } from "./schema";
import type { OrderEventDetails, OrderEventType } from "./order-events";
import { assertTransition } from "./order-status";
import { settleRedemption } from "./code-redemptions.server";
import type { PricedLine } from "./pricing";

/** Order rows, their event log and the reads every order module shares. */

export type Order = typeof orders.$inferSelect;
export type OrderLine = typeof orderLines.$inferSelect;
export type Payment = typeof payments.$inferSelect;

/** The order confirmation waits this long for upsells unless the funnel ends sooner. */
export const confirmationDelayMs = 15 * 60 * 1000;

/** An order line as stored: what was sold, at which price and VAT, from which step. */
export function orderLineRow(orderId: string, line: PricedLine & { discountMinor?: number }, source: string, digitalConsentAt: Date | null): typeof orderLines.$inferInsert {
  const { bundleId, productId, productName, kind, units, grossMinor, vatRateBp, vatMinor, discountMinor = 0 } = line;
  return { orderId, bundleId, productId, productName, kind, units, grossMinor, vatRateBp, vatMinor, discountMinor, source, digitalConsentAt };
}

/** Adds an event to the order's log: one of the typed events of `order-events.ts`, with its detail. */
export async function recordEvent<T extends OrderEventType>(tx: Queryable, orderId: string, type: T, detail: OrderEventDetails[T], status?: { from: OrderStatus; to: OrderStatus }): Promise<void> {
  await tx.insert(orderEvents).values({ orderId, type, detail, fromStatus: status?.from ?? null, toStatus: status?.to ?? null });
}

/** What an order's new status means for the code it reserved: paid keeps it, an unpaid end gives it back. */
const redemptionOutcomes: Partial<Record<OrderStatus, "kept" | "released">> = { paid: "kept", payment_failed: "released", cancelled: "released" };

/**
 * Moves an order to a new status with its event, and settles its code's redemption in the same
 * transaction; the order must be locked by the caller.
 */
export async function changeStatus<T extends OrderEventType>(tx: Transaction, order: Order, to: OrderStatus, type: T, detail: OrderEventDetails[T]): Promise<Order> {
  assertTransition(order.status, to);
  const [updated] = await tx
    .update(orders)
    .set({ status: to, ...(to === "paid" && !order.paidAt ? { paidAt: new Date() } : {}) })
    .where(eq(orders.id, order.id))
    .returning();
  await recordEvent(tx, order.id, type, detail, { from: order.status, to });
  const redemption = redemptionOutcomes[to];
  if (redemption) await settleRedemption(tx, order.id, redemption, new Date());
  return updated as Order;
}

export async function paymentById(db: Queryable, id: string): Promise<Payment | undefined> {
  const [payment] = await db.select().from(payments).where(eq(payments.id, id));
  return payment;
}

export async function orderById(db: Queryable, id: string): Promise<Order | undefined> {
  const [order] = await db.select().from(orders).where(eq(orders.id, id));
  return order;
}

export async function linesOf(db: Queryable, orderId: string): Promise<OrderLine[]> {
  return db.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(asc(orderLines.id));
}

/** The latest attempt to pay at checkout (upsell payments have their own). */
export async function latestCheckoutPayment(db: Queryable, orderId: string): Promise<Payment | undefined> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.purpose, "checkout")))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return payment;
}
