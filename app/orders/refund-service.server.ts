import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNotNull, like, lte } from "drizzle-orm";
import type { Database, Transaction } from "../db/database.server";
import { orderLines, orders, payments, refunds, type OrderStatus } from "./schema";
import { outbox } from "../mail/schema";
import { enqueueMail } from "../mail/outbox.server";
import type { PaymentProvider } from "../payments/provider";
import { changeStatus, recordEvent, type Order, type OrderLine, type Payment } from "./order-records.server";

/**
 * Refunds of a whole order or of single lines through the provider that took each payment
 * (decisions 13 and 31), ready for the back office. A request carries its own key: sent twice, it is one
 * refund at the provider; interrupted, the same key finishes what was started. The buyer is told by
 * e-mail of every refund that succeeds, once.
 */

export type Refund = typeof refunds.$inferSelect;

export type RefundScope = { kind: "order" } | { kind: "lines"; lineIds: readonly number[] };

export type RefundRefusal =
  /** The order was never paid, or is cancelled. */
  | "not_paid"
  /** A line that is not on this order, or was refunded already. */
  | "unknown_line"
  /** Nothing left to give back. */
  | "nothing_to_refund"
  /** More than is left of the payment that took it. */
  | "above_paid";

export type RefundResult =
  | { kind: "refunded"; order: Order; refunds: Refund[] }
  /** The provider refused or could not be reached for some of it; the same key tries again. */
  | { kind: "incomplete"; order: Order; refunds: Refund[] }
  | { kind: "refused"; reason: RefundRefusal };

const refundableStatuses: readonly OrderStatus[] = ["paid", "fulfilled", "partially_refunded", "withdrawn"];

interface PlannedRefund {
  payment: Payment;
  amountMinor: number;
  lineIds: number[];
}

/** The succeeded payment that took a line: the checkout's for its lines, the upsell's own for an upsell line. */
function paymentOfLine(line: OrderLine, paid: readonly Payment[]): Payment | undefined {
  const purpose = line.source.startsWith("upsell:") ? line.source : "checkout";
  return paid.find((payment) => payment.purpose === purpose);
}

async function planRefund(tx: Transaction, order: Order, scope: RefundScope): Promise<PlannedRefund[] | RefundRefusal> {
  const paid = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, order.id), eq(payments.status, "succeeded")));
  const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, order.id));
  const earlier = await tx
    .select()
    .from(refunds)
    .where(and(eq(refunds.orderId, order.id), inArray(refunds.status, ["pending", "succeeded"])));
  const refundedLines = new Set(earlier.flatMap((refund) => refund.lineIds));
  const leftOf = (payment: Payment) =>
    payment.amountMinor - earlier.filter((refund) => refund.paymentId === payment.id).reduce((sum, refund) => sum + refund.amountMinor, 0);

  if (scope.kind === "order") {
    const planned = paid.map((payment) => ({
      payment,
      amountMinor: leftOf(payment),
      lineIds: lines.filter((line) => !refundedLines.has(line.id) && paymentOfLine(line, paid)?.id === payment.id).map((line) => line.id),
    }));
    const due = planned.filter((refund) => refund.amountMinor > 0);
    return due.length > 0 ? due : "nothing_to_refund";
  }

  const byPayment = new Map<string, PlannedRefund>();
  for (const lineId of new Set(scope.lineIds)) {
    const line = lines.find((candidate) => candidate.id === lineId);
    const payment = line && !refundedLines.has(line.id) ? paymentOfLine(line, paid) : undefined;
    if (!line || !payment) return "unknown_line";
    const planned = byPayment.get(payment.id) ?? { payment, amountMinor: 0, lineIds: [] };
    planned.amountMinor += line.grossMinor;
    planned.lineIds.push(line.id);
    byPayment.set(payment.id, planned);
  }
  if (byPayment.size === 0) return "nothing_to_refund";
  for (const planned of byPayment.values()) if (planned.amountMinor > leftOf(planned.payment)) return "above_paid";
  return [...byPayment.values()];
}

const requestPrefix = (orderId: string, requestKey: string) => `order:${orderId}:refund:${requestKey}:`;

/** Writes the refunds of a request once; the same request again finds them instead. */
async function recordRequest(db: Database, orderId: string, scope: RefundScope, reason: string, requestKey: string): Promise<RefundRefusal | null> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order) return "not_paid";
    // The same request again (a double click) finds its refunds, even when it left the order refunded.
    const existing = await tx
      .select({ id: refunds.id })
      .from(refunds)
      .where(like(refunds.idempotencyKey, `${requestPrefix(orderId, requestKey)}%`));
    if (existing.length > 0) return null;
    if (order.status === "refunded") return "nothing_to_refund";
    if (!refundableStatuses.includes(order.status)) return "not_paid";
    const plan = await planRefund(tx, order, scope);
    if (typeof plan === "string") return plan;
    await tx.insert(refunds).values(
      plan.map((planned) => ({
        id: randomUUID(),
        orderId,
        paymentId: planned.payment.id,
        amountMinor: planned.amountMinor,
        lineIds: planned.lineIds,
        reason,
        status: "pending" as const,
        idempotencyKey: `${requestPrefix(orderId, requestKey)}${planned.payment.id}`,
      })),
    );
    return null;
  });
}

/** Asks each payment's provider for its part; a provider that cannot be reached leaves it pending. */
async function sendPending(
  db: Database,
  providers: ReadonlyMap<string, PaymentProvider>,
  orderId: string,
  requestKey: string,
): Promise<{ settled: Refund[]; newlySucceeded: Refund[] }> {
  const rows = await db
    .select()
    .from(refunds)
    .where(like(refunds.idempotencyKey, `${requestPrefix(orderId, requestKey)}%`));
  const settled: Refund[] = [];
  const newlySucceeded: Refund[] = [];
  for (const row of rows) {
    // Settled, or accepted by the provider and waiting for its word (a webhook): never sent again,
    // since a key older than the provider keeps it (`PaymentProvider.idempotencyKeyKeptMs`) would
    // refund a second time.
    if (row.status !== "pending" || row.providerRef) {
      settled.push(row);
      continue;
    }
    const [payment] = await db.select().from(payments).where(eq(payments.id, row.paymentId));
    const provider = payment && providers.get(payment.provider);
    if (!payment?.providerRef || !provider) {
      settled.push(row);
      continue;
    }
    try {
      const outcome = await provider.refund({ idempotencyKey: row.idempotencyKey, providerRef: payment.providerRef, amountMinor: row.amountMinor });
      const [updated] = await db
        .update(refunds)
        .set(outcome.status === "failed" ? { status: "failed", failureReason: outcome.reason } : { status: outcome.status, providerRef: outcome.refundRef })
        .where(and(eq(refunds.id, row.id), eq(refunds.status, "pending")))
        .returning();
      // A twin of this request settled it first: report what it found.
      const [current] = updated ? [updated] : await db.select().from(refunds).where(eq(refunds.id, row.id));
      settled.push(current ?? row);
      // Only the request that moved a refund out of `pending` reports it: a racing twin finds it settled.
      if (updated?.status === "succeeded") newlySucceeded.push(updated);
    } catch (error) {
      console.error(`Refund ${row.id} could not reach ${payment.provider}: ${error instanceof Error ? error.message : String(error)}`);
      settled.push(row);
    }
  }
  return { settled, newlySucceeded };
}

/**
 * Queues the refund e-mail for the refunds this call moved to `succeeded`. Only the call that moved
 * a refund out of `pending` reports it (see `sendPending`), so the sets reported by two calls never
 * share a refund, and the key named after one of them is never used for another e-mail: a request
 * sent twice, or retried after the provider was down, tells the buyer of each refund exactly once.
 * In the usual case (everything succeeds at the first try) that is one e-mail per refund action.
 * The buyer of an erased order is not written to.
 */
async function queueRefundMail(tx: Transaction, order: Order, newlyDone: readonly Refund[], fullyRefunded: boolean): Promise<void> {
  if (order.erasedAt) return;
  const refundIds = newlyDone.map((refund) => refund.id).sort();
  // The receipt of an order refunded within minutes of being paid may still wait for its upsells:
  // the refund e-mail follows it instead of overtaking it.
  const [confirmation] = await tx
    .select({ sendAfter: outbox.sendAfter })
    .from(outbox)
    .where(and(eq(outbox.dedupeKey, `order-confirmation:${order.id}`), eq(outbox.status, "pending")));
  const now = Date.now();
  await enqueueMail(tx, {
    kind: "refund",
    dedupeKey: `refund:${refundIds[0]}`,
    recipient: order.email,
    locale: order.locale,
    orderId: order.id,
    payload: {
      amountMinor: newlyDone.reduce((sum, refund) => sum + refund.amountMinor, 0),
      lineIds: [...new Set(newlyDone.flatMap((refund) => refund.lineIds))].sort((a, b) => a - b),
      refundIds,
      fullyRefunded,
      market: order.market,
    },
    sendAfter: confirmation && confirmation.sendAfter.getTime() > now ? new Date(confirmation.sendAfter.getTime() + 1000) : new Date(now),
  });
}

/** What the succeeded payments of an order took, and what refunds that succeeded gave back of it. */
async function orderTotals(tx: Transaction, orderId: string): Promise<{ paidMinor: number; givenMinor: number }> {
  const paid = await tx
    .select({ amountMinor: payments.amountMinor })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, "succeeded")));
  const given = await tx
    .select({ amountMinor: refunds.amountMinor })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.status, "succeeded"), eq(refunds.kind, "order")));
  return { paidMinor: paid.reduce((sum, row) => sum + row.amountMinor, 0), givenMinor: given.reduce((sum, row) => sum + row.amountMinor, 0) };
}

/** The order's status follows what has been given back in all, and the buyer is told. */
async function settleOrder(db: Database, orderId: string, newlyDone: readonly Refund[], reason: string): Promise<Order> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order) throw new Error(`Order ${orderId} vanished during a refund`);
    if (newlyDone.length === 0) return order;
    const { paidMinor, givenMinor } = await orderTotals(tx, orderId);
    const to: OrderStatus = givenMinor >= paidMinor ? "refunded" : "partially_refunded";
    const detail = { amount: newlyDone.reduce((sum, refund) => sum + refund.amountMinor, 0), refundedInAll: givenMinor, reason };
    await queueRefundMail(tx, order, newlyDone, to === "refunded");
    if (order.status === to && to === "refunded") {
      await recordEvent(tx, orderId, "refund_succeeded", detail);
      return order;
    }
    return changeStatus(tx, order, to, "refund_succeeded", detail);
  });
}

/**
 * A refund the provider had accepted as pending has ended (its webhook): the row follows, once,
 * and the order's status with it. A failed refund leaves the order as it was, shown as failed in
 * the back office; nothing was given back, so the buyer is not told of a refund.
 */
export async function settleProviderRefund(db: Database, refundRef: string, status: "succeeded" | "failed", failureReason = "the provider could not give the money back"): Promise<void> {
  const [row] = await db
    .update(refunds)
    .set(status === "succeeded" ? { status } : { status, failureReason })
    .where(and(eq(refunds.providerRef, refundRef), eq(refunds.status, "pending")))
    .returning();
  // Applied before, or a refund made in the provider's dashboard (its total arrives as payment.refunded).
  if (!row) return;
  if (row.kind === "stray") {
    // A charge the store had not wanted: the order's money and status are not this refund's; a failed one is the operator's to give back.
    const detail = { payment: row.paymentId, refund: refundRef, amount: row.amountMinor };
    await recordEvent(db, row.orderId, row.status === "succeeded" ? "stray_charge_refund_confirmed" : "stray_charge_refund_failed", row.status === "succeeded" ? detail : { ...detail, failure: failureReason });
    if (row.status === "failed") console.error(`Refund ${refundRef} of a stray charge (payment ${row.paymentId}) failed at the provider: ${failureReason}`);
    return;
  }
  if (row.status === "succeeded") {
    await settleOrder(db, row.orderId, [row], row.reason);
    return;
  }
  await recordEvent(db, row.orderId, "refund_failed", { refund: row.id, amount: row.amountMinor, reason: failureReason });
}

/**
 * Asks the providers about the refunds they took as pending and that are older than `olderThanMs`:
 * a provider that sends no event when a pending refund fails can be asked (`retrieveRefund`, whose
 * implementation says why), and only asking finds a failed one. Each answer is applied as its event
 * would be, once.
 */
export async function pollPendingRefunds(db: Database, providers: ReadonlyMap<string, PaymentProvider>, options: { olderThanMs: number; limit?: number }): Promise<void> {
  // Only the providers that can be asked, chosen in the query: older refunds of the others (which
  // tell of each by an event) would otherwise fill the batch for ever.
  const askable = [...providers].filter(([, provider]) => provider.retrieveRefund).map(([id]) => id);
  if (askable.length === 0) return;
  const waiting = await db
    .select({ providerRef: refunds.providerRef, provider: payments.provider })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(
      and(
        eq(refunds.status, "pending"),
        isNotNull(refunds.providerRef),
        inArray(payments.provider, askable),
        lte(refunds.createdAt, new Date(Date.now() - options.olderThanMs)),
      ),
    )
    .orderBy(asc(refunds.createdAt))
    .limit(options.limit ?? 50);
  for (const { providerRef, provider: providerId } of waiting) {
    const provider = providers.get(providerId);
    if (!providerRef || !provider?.retrieveRefund) continue;
    try {
      const outcome = await provider.retrieveRefund(providerRef);
      if (outcome.status === "succeeded") await settleProviderRefund(db, providerRef, "succeeded");
      if (outcome.status === "failed") await settleProviderRefund(db, providerRef, "failed", outcome.reason);
    } catch (error) {
      console.error(`Refund ${providerRef} could not be asked of ${providerId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

export async function refundOrder(
  db: Database,
  providers: ReadonlyMap<string, PaymentProvider>,
  input: { orderId: string; scope: RefundScope; reason: string; requestKey: string },
): Promise<RefundResult> {
  const refused = await recordRequest(db, input.orderId, input.scope, input.reason, input.requestKey);
  if (refused) return { kind: "refused", reason: refused };
  const { settled, newlySucceeded } = await sendPending(db, providers, input.orderId, input.requestKey);
  const order = await settleOrder(db, input.orderId, newlySucceeded, input.reason);
  const done = settled.every((refund) => refund.status === "succeeded");
  return { kind: done ? "refunded" : "incomplete", order, refunds: settled };
}

export type RefundPreview = { kind: "due"; amountMinor: number; lineIds: number[] } | { kind: "refused"; reason: RefundRefusal };

/**
 * What a refund would give back, worked out as `refundOrder` would but writing nothing: the amount
 * an operator confirms before anything is sent to a provider.
 */
export async function previewRefund(db: Database, orderId: string, scope: RefundScope): Promise<RefundPreview> {
  return db.transaction(async (tx): Promise<RefundPreview> => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
    if (!order || order.status === "refunded") return { kind: "refused", reason: order ? "nothing_to_refund" : "not_paid" };
    if (!refundableStatuses.includes(order.status)) return { kind: "refused", reason: "not_paid" };
    const plan = await planRefund(tx, order, scope);
    if (typeof plan === "string") return { kind: "refused", reason: plan };
    return { kind: "due", amountMinor: plan.reduce((sum, planned) => sum + planned.amountMinor, 0), lineIds: plan.flatMap((planned) => planned.lineIds).sort((a, b) => a - b) };
  });
}

/** Order statuses in which money was taken: a refund reported for any other changes only the timeline. */
const paidStatuses: readonly OrderStatus[] = ["paid", "fulfilled", "partially_refunded", "withdrawn"];

/**
 * The provider's word on how much of one payment it has given back in all (its total refunded of
 * that payment's charge or capture, as the provider's webhook module reads it), compared with that
 * payment alone, never with the whole order: an order with an upsell has a payment, and an event,
 * per charge.
 *
 * What the provider counts beyond the refunds this store knows of for the payment was refunded
 * elsewhere (the provider's dashboard): it is booked as a refund of that payment, so it leaves the
 * back office's refundable rest and moves the order's status (to `refunded` once everything is
 * given back). The store's own refunds count as known while pending too, whether the provider has
 * accepted them or the request is still on its way: a total that crosses one of ours in flight
 * is never booked twice; a dashboard refund made in that moment is booked by the provider's next
 * total. Totals only grow, so a total at or below what is known (an earlier event delivered late,
 * a report of our own refund) changes nothing. `refunded` is final: a later event is taken and
 * only noted on the timeline.
 *
 * It queues no refund e-mail, on purpose: the store's own refunds are announced by `refundOrder`
 * when they succeed; refunds made in the provider's dashboard are announced by the provider, as its
 * account's settings say (the provider's webhook module says which).
 */
export async function takeProviderRefundTotal(db: Database, paymentId: string, refundedMinor: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId));
    if (!payment) return;
    const [order] = await tx.select().from(orders).where(eq(orders.id, payment.orderId)).for("update");
    if (!order) return;
    const detail = { payment: payment.id, refunded: refundedMinor };
    if (!paidStatuses.includes(order.status) || payment.status !== "succeeded") {
      await recordEvent(tx, order.id, "payment_refunded", detail);
      return;
    }
    const known = await tx
      .select({ amountMinor: refunds.amountMinor })
      .from(refunds)
      .where(and(eq(refunds.paymentId, payment.id), inArray(refunds.status, ["pending", "succeeded"])));
    const knownMinor = known.reduce((sum, row) => sum + row.amountMinor, 0);
    const elsewhereMinor = Math.min(refundedMinor, payment.amountMinor) - knownMinor;
    if (elsewhereMinor <= 0) {
      await recordEvent(tx, order.id, "payment_refunded", detail);
      return;
    }
    // Keyed by the total it completes: the same total delivered twice, or racing itself, is booked once.
    const [booked] = await tx
      .insert(refunds)
      .values({
        id: randomUUID(),
        orderId: order.id,
        paymentId: payment.id,
        amountMinor: elsewhereMinor,
        lineIds: [],
        reason: "refunded at the provider",
        status: "succeeded",
        idempotencyKey: `payment:${payment.id}:provider-total:${refundedMinor}`,
      })
      .onConflictDoNothing()
      .returning();
    if (!booked) return;
    const { paidMinor, givenMinor } = await orderTotals(tx, order.id);
    const to: OrderStatus = givenMinor >= paidMinor ? "refunded" : "partially_refunded";
    await changeStatus(tx, order, to, "payment_refunded", { ...detail, elsewhere: elsewhereMinor, refundedInAll: givenMinor });
  });
}
