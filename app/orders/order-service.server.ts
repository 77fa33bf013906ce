import { createHash, randomUUID } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Transaction, Database } from "../db/database.server";
import { orderLines, orders, payments, type OrderStatus, type PaymentStatus } from "./schema";
import { outbox } from "../mail/schema";
import type { PaymentOutcome } from "../payments/provider";
import type { OrderEventType } from "./order-events";
import { newOrderNumber } from "./order-number";
import { changeStatus, confirmationDelayMs, orderLineRow, recordEvent, type Order, type Payment } from "./order-records.server";
import type { OrderTotals, PricedLine } from "./pricing";
import { addUpsellLine } from "./upsell-service.server";
import type { CodeRefusal } from "../codes/code-terms";
import type { CountryCode, CurrencyCode } from "../market/markets";
import { redemptionOf, reserveCode, settleRedemption } from "./code-redemptions.server";
import { storeOrderTouch } from "../attribution/touches.server";
import type { Touch } from "../attribution/touch";

/**
 * Orders and their payments (decision 42). Every change of status is written with its event and,
 * where the buyer is told, its e-mail in the outbox, in one transaction. Rows that two requests
 * may change at once are read `FOR UPDATE`, so PostgreSQL's real concurrency loses nothing.
 */

/** A checkout line's source: the bundle is `checkout`, the lines after it `checkout:1`, … */
const checkoutLineSource = (index: number) => (index === 0 ? "checkout" : `checkout:${index}`);

/** The source of the checkout's add-on (order bump), the only second line a checkout makes. */
export const bumpLineSource = checkoutLineSource(1);

export interface Contact {
  email: string;
  givenName: string;
  familyName: string;
  addressLine1: string;
  addressLine2: string;
  postalCode: string;
  city: string;
  country: string;
  phone: string;
}

export interface NewOrder {
  checkoutToken: string;
  market: string;
  locale: string;
  currency: string;
  contact: Contact;
  /** With a code, each line is after its share of the discount, `discountMinor`. */
  lines: readonly (PricedLine & { discountMinor?: number })[];
  totals: OrderTotals;
  funnelSrc: string | null;
  /** The split-test arm (`key.arm`) and exposure token the checkout's `xp` carried, when its token is valid. */
  experiment?: { arm: string; token: string } | null;
  /** Where the visit came from (docs/decisions/0045-the-touch-of-a-visit.md). */
  touch?: Touch | null;
  test: boolean;
  digitalConsent: boolean;
  /** The code applied at the checkout; `lines` and `totals` already carry its discount. */
  code?: { code: string; discountMinor: number } | null;
}

/** The code was refused when the order was placed (taken meanwhile, expired): nothing of the order is kept. */
export class CodeRefused extends Error {
  constructor(readonly refusal: CodeRefusal) {
    super(`Code refused: ${refusal}`);
  }
}

/**
 * Reserves the order's code in its transaction, checked again under the code's lock: the discount
 * the lines carry must still be what the code takes off, else the order is not placed.
 */
async function reserveOrderCode(tx: Transaction, order: Order, code: { code: string; discountMinor: number }): Promise<void> {
  const reserved = await reserveCode(tx, {
    code: code.code,
    email: order.email,
    country: order.market as CountryCode,
    currency: order.currency as CurrencyCode,
    linesMinor: order.itemsMinor + code.discountMinor,
    now: new Date(),
    orderId: order.id,
  });
  if (!reserved.ok) throw new CodeRefused(reserved.refusal);
  if (reserved.discountMinor !== code.discountMinor) throw new CodeRefused("used");
}

/**
 * The key of the order a changed submission makes: the form's token and what the order holds, so
 * that the same changed form sent twice still finds one order (see `placeOrder`).
 */
function changedOrderKey(input: NewOrder): string {
  const content = JSON.stringify([input.market, input.currency, input.totals.totalMinor, input.code?.code ?? null, input.lines.map((line) => [line.bundleId, line.grossMinor, line.discountMinor ?? 0])]);
  return `${input.checkoutToken}~${createHash("sha256").update(content).digest("base64url").slice(0, 22)}`;
}

/** The form token an order's key was made from: the key itself, or the part before a changed order's `~`. */
export function formTokenOf(checkoutKey: string): string {
  return checkoutKey.split("~")[0] ?? checkoutKey;
}

/** Whether an order already placed with a form's token holds what this submission asks to pay. */
async function holdsSubmission(tx: Transaction, order: Order, input: NewOrder): Promise<boolean> {
  if (order.market !== input.market || order.currency !== input.currency || order.totalMinor !== input.totals.totalMinor) return false;
  const lines = (await tx.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(orderLines.id)).filter((line) => line.source.startsWith("checkout"));
  const same = lines.length === input.lines.length && lines.every((line, index) => line.bundleId === input.lines[index]?.bundleId && line.grossMinor === input.lines[index]?.grossMinor);
  return same && ((await redemptionOf(tx, order.id))?.code ?? null) === (input.code?.code ?? null);
}

async function insertOrder(tx: Transaction, input: NewOrder): Promise<Order | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const number = newOrderNumber();
    const taken = await tx.select({ id: orders.id }).from(orders).where(eq(orders.number, number));
    if (taken.length > 0) continue;
    const [order] = await tx
      .insert(orders)
      .values({
        id: randomUUID(),
        number,
        status: "pending_payment",
        market: input.market,
        locale: input.locale,
        currency: input.currency,
        ...input.contact,
        ...input.totals,
        checkoutToken: input.checkoutToken,
        funnelSrc: input.funnelSrc,
        experimentArm: input.experiment?.arm ?? null,
        experimentToken: input.experiment?.token ?? null,
        test: input.test,
      })
      .onConflictDoNothing({ target: orders.checkoutToken })
      .returning();
    if (!order) return undefined;
    const consentAt = input.digitalConsent ? new Date() : null;
    await tx.insert(orderLines).values(
      input.lines.map((line, index) => orderLineRow(order.id, line, checkoutLineSource(index), line.kind === "digital" ? consentAt : null)),
    );
    if (input.touch) await storeOrderTouch(tx, order.id, input.touch);
    await recordEvent(tx, order.id, "order_created", { total: order.totalMinor, currency: order.currency, lines: input.lines.length });
    return order;
  }
  throw new Error("Could not find a free order number in five tries");
}

export type PlaceResult =
  /**
   * A payment attempt to send to the provider now. `superseded` is the attempt the buyer left
   * open at the provider (a bank, wallet or 3-D Secure page) before paying again this way: closed
   * here, it must be cancelled at its provider too.
   */
  | { kind: "pay"; order: Order; payment: Payment; superseded?: Payment }
  /** Another request of the same submission is paying: wait for its outcome. */
  | { kind: "in_progress"; order: Order; payment: Payment }
  | { kind: "already_paid"; order: Order };

const settledOrderStatuses: readonly OrderStatus[] = ["paid", "fulfilled", "partially_refunded", "refunded", "withdrawn", "cancelled"];
const openPaymentStatuses: readonly PaymentStatus[] = ["started", "requires_action", "processing"];

/** The event of an upsell's payment that did not (yet) succeed, by the provider's answer. */
const upsellPaymentEvents = {
  requires_action: "upsell_payment_requires_action",
  processing: "upsell_payment_processing",
  declined: "upsell_payment_declined",
} as const satisfies Record<Exclude<PaymentOutcome["status"], "succeeded">, OrderEventType>;

/**
 * Creates the order of a checkout submission, or finds it again when the same form is sent twice,
 * and opens one payment attempt for it. The order row is locked while deciding, so two requests of
 * one submission never both start a payment. Throws `CodeRefused`, placing nothing, when the
 * order's code cannot be reserved.
 */
export async function placeOrder(db: Database, input: NewOrder, payment: { provider: string; method: string; returnPath: string }): Promise<PlaceResult> {
  return db.transaction((tx) => placeIn(tx, input, payment));
}

async function placeIn(tx: Transaction, input: NewOrder, payment: { provider: string; method: string; returnPath: string }): Promise<PlaceResult> {
  const created = await insertOrder(tx, input);
  const [order] = await tx.select().from(orders).where(eq(orders.checkoutToken, input.checkoutToken)).for("update");
  if (!order) throw new Error("The order of a checkout token vanished");
  if (settledOrderStatuses.includes(order.status)) return { kind: "already_paid", order };
  // Back from a declined payment the buyer may untick the add-on or apply a code: an unpaid
  // order is never charged for other lines or another total than this form shows. The changed
  // submission is an order of its own (the one left behind is superseded like any left order).
  if (!created && !input.checkoutToken.includes("~")) {
    // One form pays once: when a changed order of it was paid already, sending it again pays nothing.
    const [paidSibling] = await tx
      .select()
      .from(orders)
      .where(and(sql`left(${orders.checkoutToken}, ${input.checkoutToken.length + 1}) = ${`${input.checkoutToken}~`}`, inArray(orders.status, [...settledOrderStatuses])))
      .limit(1);
    if (paidSibling) return { kind: "already_paid", order: paidSibling };
    if (!(await holdsSubmission(tx, order, input))) return placeIn(tx, { ...input, checkoutToken: changedOrderKey(input) }, payment);
  }
  if (created && input.code) await reserveOrderCode(tx, order, input.code);
  const [open] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, order.id), inArray(payments.status, [...openPaymentStatuses])))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  if (open && !(open.status === "requires_action" && created === undefined)) return { kind: "in_progress", order, payment: open };
  let current = order;
  let superseded: Payment | undefined;
  if (!created) {
    // A retry after a decline: the buyer may have corrected the address, never the lines.
    const [updated] = await tx.update(orders).set({ ...input.contact }).where(eq(orders.id, order.id)).returning();
    current = updated as Order;
    if (open) {
      superseded = await settlePayment(tx, open, { status: "declined", providerRef: open.providerRef, code: "cancelled" }, new Date());
      await recordEvent(tx, order.id, "payment_superseded", { payment: open.id, method: open.method });
    }
    if (current.status === "payment_failed") {
      // The decline gave the code back: paying again takes it again, if it still may be.
      const redemption = await redemptionOf(tx, order.id);
      if (redemption && redemption.status === "released") await reserveOrderCode(tx, current, redemption);
      current = await changeStatus(tx, current, "pending_payment", "payment_retried", {});
    }
  }
  const [{ attempts } = { attempts: 0 }] = await tx.select({ attempts: sql<number>`count(*)::int` }).from(payments).where(eq(payments.orderId, order.id));
  const [started] = await tx
    .insert(payments)
    .values({
      id: randomUUID(),
      orderId: order.id,
      provider: payment.provider,
      method: payment.method,
      purpose: "checkout",
      status: "started",
      amountMinor: order.totalMinor,
      currency: order.currency,
      idempotencyKey: `order:${order.id}:checkout:${attempts + 1}`,
      returnPath: payment.returnPath,
    })
    .returning();
  await recordEvent(tx, order.id, "payment_started", { method: payment.method, amount: order.totalMinor, attempt: attempts + 1 });
  return { kind: "pay", order: current, payment: started as Payment, ...(superseded ? { superseded } : {}) };
}

/**
 * The buyer left this unpaid order for a new one (another bundle or market, same browser): its open
 * attempts are closed here, to be cancelled at their providers, so approving one later pays nothing.
 */
export async function supersedeOpenAttempts(db: Database, orderId: string, newOrderId: string): Promise<Payment[]> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order || !["pending_payment", "payment_failed"].includes(order.status)) return [];
    const open = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, order.id), inArray(payments.status, [...openPaymentStatuses])))
      .for("update");
    const closed: Payment[] = [];
    for (const payment of open) {
      closed.push(await settlePayment(tx, payment, { status: "declined", providerRef: payment.providerRef, code: "cancelled" }, new Date()));
      await recordEvent(tx, order.id, "payment_superseded", { payment: payment.id, method: payment.method, newOrder: newOrderId });
    }
    // Left for another order, this one will not be paid: its code is free again.
    await settleRedemption(tx, order.id, "released", new Date());
    return closed;
  });
}

async function settlePayment(tx: Transaction, payment: Payment, outcome: PaymentOutcome, supersededAt?: Date): Promise<Payment> {
  const status: PaymentStatus = outcome.status === "declined" ? (outcome.code === "cancelled" ? "cancelled" : "declined") : outcome.status;
  const [updated] = await tx
    .update(payments)
    .set({
      status,
      providerRef: outcome.providerRef ?? payment.providerRef,
      reusableMethodRef: outcome.status === "succeeded" ? outcome.reusableMethodRef : payment.reusableMethodRef,
      failureCode: outcome.status === "declined" ? outcome.code : null,
      // What the first call sent names the buyer; it is kept only to replay the call while the attempt is open.
      ...(openPaymentStatuses.includes(status) ? {} : { providerRequest: null }),
      ...(supersededAt ? { supersededAt } : {}),
      updatedAt: new Date(),
    })
    .where(eq(payments.id, payment.id))
    .returning();
  return updated as Payment;
}

/** The order is paid: its status and its confirmation e-mail, once. */
async function markPaid(tx: Transaction, order: Order, detail: { payment: string; method: string; amount: number }): Promise<Order> {
  const paid = order.status === "paid" ? order : await changeStatus(tx, order, "paid", "payment_succeeded", detail);
  await tx
    .insert(outbox)
    .values({
      kind: "order-confirmation",
      dedupeKey: `order-confirmation:${order.id}`,
      orderId: order.id,
      recipient: order.email,
      locale: order.locale,
      sendAfter: new Date(Date.now() + confirmationDelayMs),
    })
    .onConflictDoNothing({ target: outbox.dedupeKey });
  return paid;
}

/**
 * The attempt the buyer left turned out charged (they finished the bank's, wallet's or 3-D Secure
 * page in another tab) before the new one was sent: that charge becomes the order's payment and the
 * new attempt is closed unsent, rather than charging again and refunding. Null when it is too late
 * for that (the new attempt was sent, or the order is paid another way): the charge goes back.
 */
export async function adoptSupersededCharge(db: Database, chargedId: string, unsentId: string, outcome: Extract<PaymentOutcome, { status: "succeeded" }>): Promise<{ order: Order; payment: Payment } | null> {
  return db.transaction(async (tx) => {
    const [charged] = await tx.select().from(payments).where(eq(payments.id, chargedId)).for("update");
    const [unsent] = await tx.select().from(payments).where(eq(payments.id, unsentId)).for("update");
    if (!charged || !unsent || charged.orderId !== unsent.orderId) return null;
    const [order] = await tx.select().from(orders).where(eq(orders.id, charged.orderId)).for("update");
    if (!order || !["pending_payment", "payment_failed"].includes(order.status)) return null;
    if (charged.strayRefundRef || !charged.supersededAt || unsent.status !== "started" || unsent.providerRef || unsent.providerRequest) return null;
    const now = new Date();
    await tx.update(payments).set({ status: "cancelled", failureCode: "cancelled", supersededAt: now, providerClosedAt: now, updatedAt: now }).where(eq(payments.id, unsent.id));
    const [payment] = await tx
      .update(payments)
      .set({ status: "succeeded", providerRef: outcome.providerRef, reusableMethodRef: outcome.reusableMethodRef, failureCode: null, supersededAt: null, updatedAt: now })
      .where(eq(payments.id, charged.id))
      .returning();
    const detail = { payment: charged.id, method: charged.method, amount: charged.amountMinor };
    await recordEvent(tx, order.id, "payment_finished_elsewhere", { ...detail, instead: unsent.id, insteadMethod: unsent.method });
    return { order: await markPaid(tx, order, detail), payment: payment as Payment };
  });
}

/**
 * Applies what the provider said about a payment. Final states are kept: a late or repeated
 * answer never turns a paid order back, and the confirmation e-mail is queued once.
 */
export async function applyPaymentOutcome(db: Database, paymentId: string, outcome: PaymentOutcome): Promise<{ order: Order; payment: Payment }> {
  return db.transaction(async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
    if (!payment) throw new Error(`No payment ${paymentId}`);
    const [order] = await tx.select().from(orders).where(eq(orders.id, payment.orderId)).for("update");
    if (!order) throw new Error(`No order for payment ${paymentId}`);
    if (!openPaymentStatuses.includes(payment.status)) return { order, payment };
    const updated = await settlePayment(tx, payment, outcome);
    const detail = { payment: payment.id, method: payment.method, amount: payment.amountMinor };
    if (payment.upsellLine) {
      // An upsell's payment never changes the paid order's status: it adds its line, or nothing.
      if (outcome.status === "succeeded") return { order: await addUpsellLine(tx, order, updated), payment: updated };
      await recordEvent(tx, order.id, upsellPaymentEvents[outcome.status], { ...detail, step: payment.upsellLine.step });
      return { order, payment: updated };
    }
    if (outcome.status === "succeeded") return { order: await markPaid(tx, order, detail), payment: updated };
    if (outcome.status === "declined") {
      const failed = order.status === "pending_payment" ? await changeStatus(tx, order, "payment_failed", "payment_declined", { ...detail, code: outcome.code }) : order;
      return { order: failed, payment: updated };
    }
    await recordEvent(tx, order.id, outcome.status === "processing" ? "payment_processing" : "payment_requires_action", detail);
    return { order, payment: updated };
  });
}

/**
 * The funnel of a paid order has ended (thank-you reached or last upsell answered): the
 * confirmation goes out now instead of after its delay and the physical lines may ship. Digital
 * items are invited to review after their first download (`app/downloads/`).
 */
export async function endFunnel(db: Database, orderId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const ended = await tx
      .update(orders)
      .set({ funnelEndedAt: new Date() })
      .where(and(eq(orders.id, orderId), sql`${orders.funnelEndedAt} is null`, sql`${orders.paidAt} is not null`))
      .returning();
    const [order] = ended;
    if (!order) return;
    await recordEvent(tx, orderId, "funnel_ended", {});
    await tx
      .update(outbox)
      .set({ sendAfter: new Date() })
      .where(and(eq(outbox.dedupeKey, `order-confirmation:${orderId}`), eq(outbox.status, "pending")));
  });
}
