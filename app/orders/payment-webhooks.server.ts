import { and, eq, isNull, or } from "drizzle-orm";
import type { Database } from "../db/database.server";
import { payments, webhookEvents } from "./schema";
import { isUuid } from "../db/uuid";
import { recordEvent, type Payment } from "./order-records.server";
import { applyPaymentOutcome } from "./order-service.server";
import { closeDispute, openDispute } from "./disputes.server";
import { refreshAttempt, settleAttempt } from "./payment-attempts.server";
import { settleProviderRefund, takeProviderRefundTotal } from "./refund-service.server";
import { WebhookRejected, type PaymentEvent, type PaymentProvider } from "../payments/provider";

/**
 * A provider's webhook (decision 15): verified by the provider's own rules, stored by event id and
 * applied once. The order follows verified events, never the browser's word. Answers: 200 when
 * taken (or already taken, or ignored), 400 when the signature is forged or stale, 404 for a
 * provider without webhooks, 503 when the provider's verification could not be reached (the
 * provider delivers again).
 */
export async function receiveWebhook(db: Database, provider: PaymentProvider | undefined, headers: Headers, rawBody: string): Promise<number> {
  if (!provider?.verifyWebhook) return 404;
  let verified;
  try {
    verified = await provider.verifyWebhook(headers, rawBody);
  } catch (error) {
    if (error instanceof WebhookRejected) return 400;
    console.error(`Webhook of ${provider.id} could not be verified now: ${error instanceof Error ? error.name : "error"}`);
    return 503;
  }
  const { eventId, event } = verified;
  const providerRef = "providerRef" in event ? event.providerRef : null;
  await db.insert(webhookEvents).values({ provider: provider.id, eventId, type: event.type, providerRef }).onConflictDoNothing();
  const [stored] = await db
    .select({ appliedAt: webhookEvents.appliedAt })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.provider, provider.id), eq(webhookEvents.eventId, eventId)));
  if (stored?.appliedAt) return 200;
  // Applying is itself idempotent (final payment states are kept, refunds carry totals), so a
  // delivery that races another, or follows a crash before `applied_at` was set, changes nothing twice.
  await applyEvent(db, provider, event);
  await db
    .update(webhookEvents)
    .set({ appliedAt: new Date() })
    .where(and(eq(webhookEvents.provider, provider.id), eq(webhookEvents.eventId, eventId)));
  return 200;
}

/**
 * The payment an event is about: by the provider's reference, else by our own attempt id that the
 * provider keeps with it (the answer that would have told us its reference was lost).
 */
async function paymentOf(db: Database, providerId: string, providerRef: string, attemptRef: string | undefined): Promise<Payment | undefined> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, providerId), eq(payments.providerRef, providerRef)));
  if (payment || !isUuid(attemptRef)) return payment;
  const [byAttempt] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, providerId), eq(payments.id, attemptRef), or(isNull(payments.providerRef), eq(payments.providerRef, providerRef))));
  return byAttempt;
}

async function applyEvent(db: Database, provider: PaymentProvider, event: PaymentEvent): Promise<void> {
  if (event.type === "ignored") return;
  const payment = await paymentOf(db, provider.id, event.providerRef, "attemptRef" in event ? event.attemptRef : undefined);
  // An event about a payment this store never made (another shop on the same account): nothing to do.
  if (!payment) return;
  switch (event.type) {
    case "payment.succeeded":
      await settleAttempt(db, provider, payment.id, { status: "succeeded", providerRef: event.providerRef, reusableMethodRef: event.reusableMethodRef });
      return;
    case "payment.processing":
      await applyPaymentOutcome(db, payment.id, { status: "processing", providerRef: event.providerRef });
      return;
    case "payment.failed":
      await applyPaymentOutcome(db, payment.id, { status: "declined", providerRef: event.providerRef, code: event.code });
      return;
    case "payment.refunded":
      // The refund it names, when it is one of ours that was pending, ends first (and its buyer is told).
      if (event.refund && event.refund.status !== "pending") await settleProviderRefund(db, event.refund.refundRef, event.refund.status);
      // The refund of a charge the store had not wanted (a superseded attempt) leaves the order as it is.
      if (payment.status !== "succeeded") {
        await recordEvent(db, payment.orderId, "stray_charge_refund_confirmed", { payment: payment.id, refunded: event.amountRefundedMinor });
        return;
      }
      await takeProviderRefundTotal(db, payment.id, event.amountRefundedMinor);
      return;
    case "refund.settled":
      await settleProviderRefund(db, event.refundRef, event.status);
      return;
    case "payment.disputed":
      await openDispute(db, payment.id, event.disputeRef);
      return;
    case "payment.dispute_closed":
      await closeDispute(db, payment.id, event.disputeRef, event.outcome);
      return;
    case "payment.awaiting_store":
      // Asking the provider is what the buyer's return would have done (the approved payment is captured then);
      // an attempt the store has closed is never captured.
      await refreshAttempt(db, provider, payment.providerRef ? payment : { ...payment, providerRef: event.providerRef });
      return;
  }
}
