import Stripe from "stripe";
import { WebhookRejected, type PaymentEvent, type VerifiedWebhook } from "../provider";
import { declineCodeOf, stripeIdOf } from "./stripe-outcomes.server";

/**
 * Stripe's webhooks: the `Stripe-Signature` header is checked against the raw body with the
 * endpoint's signing secret, and a signature older than the tolerance is refused, so a captured
 * request cannot be replayed later. Rejections name the reason only, never the secret or the
 * signature (the SDK's error holds both header and payload, so it is not passed on).
 */

export interface StripeWebhookCheck {
  stripe: Stripe;
  secret: string;
  toleranceSeconds: number;
  /** Milliseconds since the epoch. */
  now: () => number;
}

function rejectionReason(error: unknown): string {
  if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
    return /tolerance/i.test(error.message) ? "the signature is too old" : "the signature does not match the body";
  }
  return "the signature could not be checked";
}

export async function verifyStripeWebhook(check: StripeWebhookCheck, headers: Headers, rawBody: string): Promise<VerifiedWebhook> {
  const signature = headers.get("stripe-signature");
  if (!signature) throw new WebhookRejected("Stripe webhook without a Stripe-Signature header");
  let event: Stripe.Event;
  try {
    event = check.stripe.webhooks.constructEvent(rawBody, signature, check.secret, check.toleranceSeconds, undefined, check.now());
  } catch (error) {
    throw new WebhookRejected(`Stripe webhook rejected: ${rejectionReason(error)}`);
  }
  if (typeof event?.id !== "string" || typeof event.type !== "string" || typeof event.data?.object !== "object" || event.data.object === null) {
    throw new WebhookRejected("Stripe webhook rejected: the signed body is not a Stripe event");
  }
  return { eventId: event.id, event: paymentEventOf(event) };
}

/** The events `paymentEventOf` acts on: the go-live check wants the webhook endpoint to send them all. */
export const stripeWebhookEventTypes = [
  "payment_intent.succeeded",
  "payment_intent.processing",
  "payment_intent.payment_failed",
  "charge.refunded",
  "refund.updated",
  "refund.failed",
  "charge.refund.updated",
  "charge.dispute.created",
  "charge.dispute.closed",
] as const;

/** Our attempt's id, kept in the intent's metadata: it finds the payment when the intent's id never reached us. */
function attemptRefOf(intent: Stripe.PaymentIntent): { attemptRef?: string } {
  const attemptRef = intent.metadata?.payment_id;
  return typeof attemptRef === "string" && attemptRef ? { attemptRef } : {};
}

export function paymentEventOf(event: Stripe.Event): PaymentEvent {
  switch (event.type) {
    // The event's intent does not name the method a Bancontact or iDEAL payment was saved as:
    // the store asks Stripe for the whole intent, as a buyer's return does.
    case "payment_intent.succeeded":
      return { type: "payment.awaiting_store", providerRef: event.data.object.id, ...attemptRefOf(event.data.object) };
    case "payment_intent.processing":
      return { type: "payment.processing", providerRef: event.data.object.id, ...attemptRefOf(event.data.object) };
    case "payment_intent.payment_failed": {
      const intent = event.data.object;
      return { type: "payment.failed", providerRef: intent.id, code: declineCodeOf(intent.last_payment_error), ...attemptRefOf(intent) };
    }
    // Also a refund made in Stripe's dashboard, which Stripe announces to the buyer only when refund
    // receipts are switched on for the account: the store sends no e-mail of its own for it.
    case "charge.refunded": {
      const charge = event.data.object;
      const providerRef = stripeIdOf(charge.payment_intent);
      // A charge without a PaymentIntent was not made by this store.
      if (!providerRef) return { type: "ignored", providerType: event.type };
      return { type: "payment.refunded", providerRef, amountRefundedMinor: charge.amount_refunded };
    }
    // A refund Stripe accepted as pending has ended (docs.stripe.com/refunds#failed-refunds: a failed
    // refund sends refund.failed and charge.refund.updated; any change sends refund.updated).
    case "refund.updated":
    case "refund.failed":
    case "charge.refund.updated": {
      const refund = event.data.object;
      const providerRef = stripeIdOf(refund.payment_intent);
      if (!providerRef || (refund.status !== "succeeded" && refund.status !== "failed")) return { type: "ignored", providerType: event.type };
      return { type: "refund.settled", providerRef, refundRef: refund.id, status: refund.status };
    }
    case "charge.dispute.created": {
      const providerRef = stripeIdOf(event.data.object.payment_intent);
      if (!providerRef) return { type: "ignored", providerType: event.type };
      return { type: "payment.disputed", providerRef, disputeRef: event.data.object.id };
    }
    // "Occurs when a dispute is closed and the dispute status changes to lost, warning_closed, or won."
    case "charge.dispute.closed": {
      const dispute = event.data.object;
      const providerRef = stripeIdOf(dispute.payment_intent);
      if (!providerRef) return { type: "ignored", providerType: event.type };
      return { type: "payment.dispute_closed", providerRef, disputeRef: dispute.id, outcome: dispute.status };
    }
    default:
      return { type: "ignored", providerType: event.type };
  }
}
