import type { Database } from "../db/database.server";
import type { DeclineCode, PaymentOutcome } from "../payments/provider";
import { paymentById, type Payment } from "./order-records.server";

/**
 * Another request of the same submission started this payment: wait (briefly) until it has
 * heard from the provider, so this request answers with its outcome instead of paying again.
 */
export async function waitForSettledPayment(db: Database, paymentId: string, timeoutMs = 10_000): Promise<Payment | undefined> {
  const started = Date.now();
  for (;;) {
    const payment = await paymentById(db, paymentId);
    if (!payment || payment.status !== "started" || Date.now() - started > timeoutMs) return payment;
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

/**
 * Where a provider's pages send the buyer back. PayPal's return is the specification's
 * `/paypal-confirm/:from` page, named after the step the buyer continues to; the others come back
 * through `/checkout-return`. Both hand the payment to the same return handling.
 */
export function providerReturnPath(providerId: string, paymentId: string, continueTo: string): string {
  return providerId === "paypal" ? `/paypal-confirm/${continueTo}?payment=${paymentId}` : `/checkout-return/${paymentId}`;
}
