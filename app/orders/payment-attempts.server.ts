import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { and, eq, gt, inArray, isNotNull, isNull, lt, lte, or } from "drizzle-orm";
import type { Database } from "../db/database.server";
import { payments, refunds, type OrderStatus } from "./schema";
import type { ChargeSavedMethodInput, DeclineCode, PaymentOutcome, PaymentProvider, StartPaymentInput } from "../payments/provider";
import { providerReturnPage } from "../payments/provider-return-pages";
import { orderById, paymentById, recordEvent, type Order, type Payment } from "./order-records.server";
import { adoptSupersededCharge, applyPaymentOutcome, supersedeOpenAttempts } from "./order-service.server";

/**
 * One payment attempt from first call to outcome, for the checkout and the upsells alike
 * (docs/decisions/0030-payment-attempts.md): wait for an attempt another request is paying, call
 * the provider under the attempt's idempotency key with what the attempt first sent, apply the
 * outcome; close superseded attempts at their provider and give back what one took anyway; ask the
 * provider about attempts left open.
 */

export type ProviderLookup = (providerId: string) => PaymentProvider | undefined;

/** What to ask the provider for, less the attempt's own key and reference, which the attempt adds. */
export type AttemptRequest =
  | { kind: "start"; input: Omit<StartPaymentInput, "idempotencyKey" | "attemptRef"> }
  | { kind: "saved"; input: Omit<ChargeSavedMethodInput, "idempotencyKey" | "attemptRef"> };

/**
 * The details kept with an attempt: the tokens a provider's own fields made in the page (a
 * confirmation token or a payment method of its script). Card fields typed into our form (the test
 * gateway's) are never stored; a replay takes them from the request that brings them again.
 */
const keptDetailNames = ["paymentMethod"];

function keptRequest(request: AttemptRequest): AttemptRequest {
  if (request.kind === "saved") return request;
  const details = Object.fromEntries(Object.entries(request.input.details).filter(([name]) => keptDetailNames.includes(name)));
  return { kind: "start", input: { ...request.input, details } };
}

/**
 * The request this attempt sends: the one stored with its first call, else this one (stored now,
 * before the call, so a lost answer can be replayed as it was sent). A later submission with a new
 * token replays the first: under the same idempotency key the provider wants the same parameters.
 */
async function requestToSend(db: Database, payment: Payment, fresh: AttemptRequest | null): Promise<AttemptRequest | null> {
  let stored = payment.providerRequest as AttemptRequest | null;
  if (!stored && fresh) {
    await db
      .update(payments)
      .set({ providerRequest: keptRequest(fresh) as unknown as Record<string, unknown> })
      .where(and(eq(payments.id, payment.id), isNull(payments.providerRequest)));
    stored = ((await paymentById(db, payment.id))?.providerRequest ?? null) as AttemptRequest | null;
  } else if (stored) {
    // A replay is on its way from now: a double click meanwhile waits for it (waitForSettledPayment).
    await db.update(payments).set({ updatedAt: new Date() }).where(and(eq(payments.id, payment.id), eq(payments.status, "started")));
  }
  if (!stored) return null;
  if (stored.kind === "saved" || fresh?.kind !== "start") return stored;
  return { kind: "start", input: { ...stored.input, details: { ...fresh.input.details, ...stored.input.details } } };
}

function callProvider(provider: PaymentProvider, payment: Payment, request: AttemptRequest): Promise<PaymentOutcome> {
  const keys = { idempotencyKey: payment.idempotencyKey, attemptRef: payment.id };
  return request.kind === "saved" ? provider.chargeSavedMethod({ ...request.input, ...keys }) : provider.startPayment({ ...request.input, ...keys });
}

/**
 * How long after an attempt was last sent a request may still be waiting for the provider's answer.
 * A buyer's retry after a lost answer comes later and replays at once: nobody is paying the attempt
 * any more, and a replay under the attempt's key could not charge twice even if someone were.
 */
export const inFlightForMs = 5_000;

/** Another request of the same submission started this payment: wait (briefly) until it has heard from the provider. */
export async function waitForSettledPayment(db: Database, paymentId: string, timeoutMs = 10_000): Promise<Payment | undefined> {
  const started = Date.now();
  for (;;) {
    const payment = await paymentById(db, paymentId);
    if (!payment || payment.status !== "started" || Date.now() - started > timeoutMs) return payment;
    if (started - payment.updatedAt.getTime() > inFlightForMs) return payment;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A payment's final state as an outcome, or null while the provider has the last word. */
export function outcomeOfPayment(payment: Payment): PaymentOutcome | null {
  if (payment.status === "succeeded") return { status: "succeeded", providerRef: payment.providerRef ?? "", reusableMethodRef: payment.reusableMethodRef };
  if (payment.status === "declined" || payment.status === "cancelled") {
    return { status: "declined", providerRef: payment.providerRef, code: (payment.failureCode ?? "card_declined") as DeclineCode };
  }
  return null;
}

const openStatuses = ["started", "requires_action", "processing"];

/**
 * Applies what the provider says of an attempt. An attempt the store had closed (superseded, or
 * cancelled by the buyer) that the provider charged anyway is refunded at once: the buyer paid
 * for this order another way, or chose not to pay.
 */
export async function settleAttempt(db: Database, provider: PaymentProvider, paymentId: string, outcome: PaymentOutcome): Promise<{ order: Order; payment: Payment }> {
  const applied = await applyPaymentOutcome(db, paymentId, outcome);
  if (outcome.status === "succeeded" && applied.payment.status !== "succeeded") {
    return { order: applied.order, payment: await refundStrayCharge(db, provider, applied.payment, outcome.providerRef) };
  }
  return applied;
}

/**
 * Money taken for a closed attempt goes back, once (the refund's key is the attempt's), and the
 * order's timeline says why. The refund is a `stray` row of `refunds`: out of the order's totals,
 * but settled by the provider's events and the pending-refund poll like the store's own, so one
 * that fails later shows in the back office.
 */
async function refundStrayCharge(db: Database, provider: PaymentProvider, payment: Payment, providerRef: string): Promise<Payment> {
  if (payment.strayRefundRef) return payment;
  const idempotencyKey = `${payment.idempotencyKey}:stray-refund`;
  const refund = await provider.refund({ idempotencyKey, providerRef, amountMinor: payment.amountMinor });
  const reason = payment.supersededAt ? "paid_another_way" : "attempt_closed";
  const detail = { payment: payment.id, method: payment.method, amount: payment.amountMinor, providerRef, reason };
  const row = {
    id: randomUUID(),
    orderId: payment.orderId,
    paymentId: payment.id,
    amountMinor: payment.amountMinor,
    lineIds: [],
    reason: payment.supersededAt ? "charged after the buyer paid another way" : "charged after the attempt was closed",
    kind: "stray" as const,
    idempotencyKey,
  };
  if (refund.status === "failed") {
    // Left for the operator: the back office shows the refund as failed, the timeline why; the reconciler tries again.
    await db.transaction(async (tx) => {
      await tx
        .insert(refunds)
        .values({ ...row, status: "failed", failureReason: refund.reason.slice(0, 200) })
        .onConflictDoUpdate({ target: refunds.idempotencyKey, set: { failureReason: refund.reason.slice(0, 200) }, where: eq(refunds.status, "failed") });
      await recordEvent(tx, payment.orderId, "stray_charge_refund_failed", { ...detail, failure: refund.reason.slice(0, 200) });
    });
    console.error(`Refund of stray charge ${providerRef} (payment ${payment.id}) failed: ${refund.reason}`);
    return payment;
  }
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(payments)
      .set({ strayRefundRef: refund.refundRef, providerRef, providerClosedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(payments.id, payment.id), isNull(payments.strayRefundRef)))
      .returning();
    if (!updated) return (await paymentById(tx, payment.id)) ?? payment;
    // A try that failed before left a failed row under the same key: this one replaces it.
    await tx
      .insert(refunds)
      .values({ ...row, status: refund.status, providerRef: refund.refundRef })
      .onConflictDoUpdate({ target: refunds.idempotencyKey, set: { status: refund.status, providerRef: refund.refundRef, failureReason: null } });
    await recordEvent(tx, payment.orderId, "stray_charge_refunded", { ...detail, refund: refund.refundRef, refundStatus: refund.status });
    return updated;
  });
}

/**
 * Cancels a superseded attempt at its provider. If the provider had taken the money already (the
 * buyer finished the other page first) and the attempt that superseded it (`unsent`) has not been
 * sent, that charge pays the order instead (returned); otherwise it goes back at once. A provider
 * that cannot be reached now leaves the attempt to the reconciler.
 */
export async function closeSupersededAttempt(db: Database, providers: ProviderLookup, payment: Payment, unsent?: Payment): Promise<{ order: Order; payment: Payment } | null> {
  const provider = providers(payment.provider);
  if (!provider) return null;
  if (!payment.providerRef) {
    await db.update(payments).set({ providerClosedAt: new Date() }).where(eq(payments.id, payment.id));
    return null;
  }
  const outcome = await provider.cancelPayment(payment.providerRef);
  if (outcome.status === "succeeded") {
    // Charged before the new attempt was sent: that charge pays the order, and the new one is not made.
    const adopted = unsent ? await adoptSupersededCharge(db, payment.id, unsent.id, outcome) : null;
    if (adopted) return adopted;
    await refundStrayCharge(db, provider, (await paymentById(db, payment.id)) ?? payment, outcome.providerRef);
    return null;
  }
  // A debit already on its way cannot be cancelled: its end comes by webhook or the reconciler.
  if (outcome.status === "processing") return null;
  const closed = await db
    .update(payments)
    .set({ providerClosedAt: new Date() })
    .where(and(eq(payments.id, payment.id), isNull(payments.providerClosedAt)))
    .returning();
  if (closed.length > 0) await recordEvent(db, payment.orderId, "payment_cancelled_at_provider", { payment: payment.id, method: payment.method, providerRef: payment.providerRef });
  return null;
}

/**
 * The other attempt was closed in our database; closing it at the provider must not cost the buyer
 * this one. Returns the order and payment when the other attempt had been paid and now pays the order.
 */
async function closeQuietly(db: Database, providers: ProviderLookup, payment: Payment, unsent?: Payment): Promise<{ order: Order; payment: Payment } | null> {
  try {
    return await closeSupersededAttempt(db, providers, payment, unsent);
  } catch (error) {
    console.error(`Could not cancel superseded payment ${payment.id} at ${payment.provider} now, the reconciler tries again: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

/**
 * A new order was placed in the browser whose order cookie names `leftOrderId`: the buyer left that
 * order unpaid at a bank's or wallet's page. Its open attempts are closed at their providers, so a
 * later approval there takes nothing (or goes back at once).
 */
export async function supersedeLeftOrder(db: Database, providers: ProviderLookup, leftOrderId: string, newOrderId: string): Promise<void> {
  if (leftOrderId === newOrderId) return;
  for (const payment of await supersedeOpenAttempts(db, leftOrderId, newOrderId)) await closeQuietly(db, providers, payment);
}

export type AttemptResult =
  | { kind: "settled"; order: Order; payment: Payment; outcome: PaymentOutcome }
  /** The provider could not be reached: the attempt stays open for the next try under the same key. */
  | { kind: "unavailable"; payment: Payment };

/**
 * Runs one attempt: closes the attempt it superseded (one found charged pays the order, and this
 * attempt is never sent), waits for one another request is paying, calls the provider (a replay
 * sends what the first call sent) and applies the outcome.
 */
export async function runPaymentAttempt(
  db: Database,
  providers: ProviderLookup,
  attempt: { kind: "pay" | "in_progress"; payment: Payment; superseded?: Payment },
  request: AttemptRequest,
): Promise<AttemptResult> {
  if (attempt.superseded) {
    const adopted = await closeQuietly(db, providers, attempt.superseded, attempt.payment);
    if (adopted) return { kind: "settled", ...adopted, outcome: { status: "succeeded", providerRef: adopted.payment.providerRef ?? "", reusableMethodRef: adopted.payment.reusableMethodRef } };
  }
  let payment = attempt.payment;
  const provider = providers(payment.provider);
  if (!provider) throw new Error(`No provider ${payment.provider} for payment ${payment.id}`);
  let outcome: PaymentOutcome | null = null;
  try {
    if (attempt.kind === "in_progress") {
      // The other request of this submission is paying: take its outcome rather than pay again.
      payment = (await waitForSettledPayment(db, payment.id)) ?? payment;
      if (payment.status === "requires_action" && payment.providerRef) outcome = await provider.retrievePayment(payment.providerRef);
      else outcome = outcomeOfPayment(payment);
    }
    if (!outcome) {
      const sent = await requestToSend(db, payment, request);
      if (!sent) throw new Error(`Payment ${payment.id} has no request to send`);
      outcome = await callProvider(provider, payment, sent);
    }
  } catch (error) {
    // The provider may or may not have charged: the attempt stays open, and the next call under the
    // same idempotency key (the buyer's retry or the reconciler) finds out without charging twice.
    console.error(`Payment provider call failed for payment ${payment.id}: ${error instanceof Error ? error.message : String(error)}`);
    return { kind: "unavailable", payment };
  }
  const settled = await settleAttempt(db, provider, payment.id, outcome);
  return { kind: "settled", ...settled, outcome };
}

/**
 * What a provider's page sends the buyer back to, or a webhook says: an open attempt asks the
 * provider (one that waits for the store to capture an approved payment captures it then); a
 * closed one is cancelled there instead, never captured, and what it took anyway goes back.
 */
export async function refreshAttempt(db: Database, provider: PaymentProvider, payment: Payment): Promise<{ order: Order | undefined; payment: Payment; outcome: PaymentOutcome | null }> {
  if (!payment.providerRef) return { order: await orderById(db, payment.orderId), payment, outcome: null };
  if (openStatuses.includes(payment.status)) {
    const outcome = await provider.retrievePayment(payment.providerRef);
    return { ...(await settleAttempt(db, provider, payment.id, outcome)), outcome };
  }
  if (payment.status === "succeeded" || payment.strayRefundRef) return { order: await orderById(db, payment.orderId), payment, outcome: outcomeOfPayment(payment) };
  const outcome = await provider.cancelPayment(payment.providerRef);
  if (outcome.status === "succeeded") return { order: await orderById(db, payment.orderId), payment: await refundStrayCharge(db, provider, payment, outcome.providerRef), outcome: outcomeOfPayment(payment) };
  return { order: await orderById(db, payment.orderId), payment, outcome: outcomeOfPayment(payment) };
}

/** How long an attempt may stay open before the reconciler asks its provider. */
export const reconcileAfterMs = 5 * 60 * 1000;
const dayMs = 24 * 60 * 60 * 1000;

/**
 * A provider keeps an idempotency key for a while only (`PaymentProvider.idempotencyKeyKeptMs`, a
 * day when it does not say): an unanswered first call is replayed only within that, an hour spared.
 */
function replayWithinMs(provider: PaymentProvider): number {
  return (provider.idempotencyKeyKeptMs ?? dayMs) - 60 * 60 * 1000;
}
/** A debit on its way at the bank (SEPA) can take two weeks to end; after its first day it is asked hourly. */
const settlingWithinMs = 30 * dayMs;
const settlingEveryMs = 60 * 60 * 1000;

/**
 * Takes the next attempt that needs the provider's word, one instance at a time: the row is locked
 * with SKIP LOCKED while its `checked_at` is set, so another instance takes another attempt, and
 * this one is not asked again for `reconcileAfterMs` (hourly once it is a day old).
 */
async function claimAttempt(db: Database, now: Date): Promise<Payment | undefined> {
  const due = new Date(now.getTime() - reconcileAfterMs);
  const dayAgo = new Date(now.getTime() - dayMs);
  const openNeedsWord = and(inArray(payments.status, ["started", "requires_action", "processing"]), lt(payments.updatedAt, due));
  const unclosed = and(isNotNull(payments.supersededAt), isNull(payments.providerClosedAt), isNull(payments.strayRefundRef));
  return db.transaction(async (tx) => {
    const [payment] = await tx
      .select()
      .from(payments)
      .where(
        or(
          // A buyer who has not finished in a day has left; the provider's webhook still settles the attempt.
          and(or(openNeedsWord, unclosed), or(isNull(payments.checkedAt), lt(payments.checkedAt, due)), gt(payments.createdAt, dayAgo)),
          // A debit still processing, or a closed attempt the provider could not cancel yet (its debit
          // was processing), is asked about until it ends: a charge left there would never be refunded.
          and(
            or(and(eq(payments.status, "processing"), lt(payments.updatedAt, due)), unclosed),
            or(isNull(payments.checkedAt), lt(payments.checkedAt, new Date(now.getTime() - settlingEveryMs))),
            lte(payments.createdAt, dayAgo),
            gt(payments.createdAt, new Date(now.getTime() - settlingWithinMs)),
          ),
        ),
      )
      .orderBy(payments.updatedAt)
      .limit(1)
      .for("update", { skipLocked: true });
    if (!payment) return undefined;
    await tx.update(payments).set({ checkedAt: now }).where(eq(payments.id, payment.id));
    return payment;
  });
}

/** Asks the provider about one claimed attempt and applies its answer. */
async function reconcileAttempt(db: Database, providers: ProviderLookup, payment: Payment, now: Date): Promise<void> {
  const provider = providers(payment.provider);
  if (!provider) return;
  if (payment.supersededAt && !openStatuses.includes(payment.status)) {
    await closeSupersededAttempt(db, providers, payment);
    return;
  }
  if (payment.providerRef) {
    const outcome = await provider.retrievePayment(payment.providerRef);
    // Still waiting for the buyer or the bank: nothing new for the timeline.
    if (outcome.status !== payment.status) await settleAttempt(db, provider, payment.id, outcome);
    return;
  }
  // The first call's answer never arrived: the same request under the same key gets the provider's
  // first answer, or makes the payment the buyer asked for.
  if (now.getTime() - payment.createdAt.getTime() > replayWithinMs(provider)) return;
  const request = payment.providerRequest as AttemptRequest | null;
  if (!request) return;
  await settleAttempt(db, provider, payment.id, await callProvider(provider, payment, request));
}

/** One round of the reconciler: every attempt due, one at a time; a provider error leaves that attempt for the next round. */
export async function reconcilePaymentAttempts(db: Database, providers: ProviderLookup, now: () => Date = () => new Date()): Promise<number> {
  let handled = 0;
  for (;;) {
    const at = now();
    const payment = await claimAttempt(db, at);
    if (!payment) return handled;
    handled++;
    try {
      await reconcileAttempt(db, providers, payment, at);
    } catch (error) {
      console.error(`Reconciling payment ${payment.id} at ${payment.provider} failed, tried again later: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Runs the reconciler every `intervalMs` until stopped; a round never overlaps the last. */
export function startPaymentReconciler(db: Database, providers: ProviderLookup, intervalMs = 60_000): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() => reconcilePaymentAttempts(db, providers)).catch((error: unknown) => console.error(`Payment reconciler: ${error instanceof Error ? error.message : String(error)}`));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * The return URL's proof that it was made for this payment: a bank or wallet app may open it in
 * another browser, without the order cookie. It names the payment only, so it shows that payment's
 * state and never the order.
 */
export function paymentReturnToken(signingKey: string, paymentId: string): string {
  return createHmac("sha256", signingKey).update(`payment-return:${paymentId}`).digest("base64url").slice(0, 32);
}

export function isPaymentReturnToken(signingKey: string, paymentId: string, token: string): boolean {
  const expected = Buffer.from(paymentReturnToken(signingKey, paymentId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * What the return page in another browser says of a payment: for the checkout, whether the order is
 * paid (by this attempt or another), else where this attempt stands; an upsell's own payment speaks
 * for itself, the order being paid before it. Nothing of the order is shown.
 */
export function returnedPaymentState(payment: Payment, orderStatus: OrderStatus | undefined): "paid" | "processing" | "waiting" | "failed" {
  if (payment.status === "succeeded") return "paid";
  if (!payment.upsellLine && orderStatus && paidOrderStatuses.includes(orderStatus)) return "paid";
  if (payment.status === "processing") return "processing";
  if (payment.status === "started" || payment.status === "requires_action") return "waiting";
  return "failed";
}

const paidOrderStatuses: readonly OrderStatus[] = ["paid", "fulfilled", "partially_refunded", "refunded", "withdrawn"];

/**
 * Where a provider's pages send the buyer back: the provider's own return page when it has one
 * (`payments/provider-return-pages.ts`), named after the step the buyer continues to, else
 * `/checkout-return`. Both hand the payment to the same return handling, and carry the token that
 * names the payment.
 */
export function providerReturnPath(provider: Pick<PaymentProvider, "id">, paymentId: string, continueTo: string, signingKey: string): string {
  const returnToken = paymentReturnToken(signingKey, paymentId);
  const ownPage = providerReturnPage(provider.id);
  return ownPage ? `${ownPage}/${continueTo}?payment=${paymentId}&r=${returnToken}` : `/checkout-return/${paymentId}?r=${returnToken}`;
}
