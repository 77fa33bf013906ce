import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Database } from "../db/database.server";
import { disputes, payments } from "./schema";
import { recordEvent } from "./order-records.server";

/**
 * Disputes (chargebacks) of a payment, as the provider reports them (`payment.disputed` and
 * `payment.dispute_closed`, read from its events by its webhook module under `payments/`).
 * While one is open the order is held out of fulfilment and its downloads refuse: goods sent now may
 * be goods the store is never paid for. One closed lost holds the order for good: a provider may send
 * no refund event for a lost dispute, so the order is still `paid` with its money gone
 * (docs/decisions/0031-money-after-the-charge.md). A dispute never changes the order's status. Events
 * may arrive twice or out of order: a dispute is stored once by its provider id and never reopens.
 */

export async function openDispute(db: Database, paymentId: string, disputeRef: string): Promise<void> {
  const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
  if (!payment) return;
  const [opened] = await db
    .insert(disputes)
    .values({ id: randomUUID(), orderId: payment.orderId, paymentId: payment.id, provider: payment.provider, providerRef: disputeRef, status: "open" })
    .onConflictDoNothing()
    .returning();
  if (opened) await recordEvent(db, payment.orderId, "dispute_opened", { payment: payment.id, dispute: disputeRef });
}

export async function closeDispute(db: Database, paymentId: string, disputeRef: string, outcome: string): Promise<void> {
  const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
  if (!payment) return;
  const closedAt = new Date();
  // A closing whose opening was never delivered (or not yet) is stored closed: nothing holds the order.
  const [storedClosed] = await db
    .insert(disputes)
    .values({ id: randomUUID(), orderId: payment.orderId, paymentId: payment.id, provider: payment.provider, providerRef: disputeRef, status: "closed", outcome, closedAt })
    .onConflictDoNothing()
    .returning();
  const [closed] = storedClosed
    ? [storedClosed]
    : await db
        .update(disputes)
        .set({ status: "closed", outcome, closedAt })
        .where(and(eq(disputes.provider, payment.provider), eq(disputes.providerRef, disputeRef), eq(disputes.status, "open")))
        .returning();
  // Told once: by the call that closed it or stored it closed.
  if (closed) await recordEvent(db, payment.orderId, "dispute_closed", { payment: payment.id, dispute: disputeRef, outcome });
}
