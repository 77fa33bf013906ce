import type Stripe from "stripe";
import type { DeclineCode, PaymentOutcome } from "../provider";

/**
 * Stripe's PaymentIntent in our words (decisions 0015 and 0023). Shared by the calls, the return from
 * Stripe's pages and the webhooks, so all three read a payment the same way.
 */

/** Stripe's reason for a failed attempt, as its errors and `last_payment_error` carry it. */
export interface StripeDeclineReason {
  code?: string | null;
  decline_code?: string | null;
}

/** Codes that mean the buyer did not (or could not) authenticate with the card issuer. */
const authenticationFailures = new Set(["authentication_required", "payment_intent_authentication_failure"]);

export function declineCodeOf(reason: StripeDeclineReason | null | undefined): DeclineCode {
  if (!reason) return "card_declined";
  if (reason.decline_code === "insufficient_funds" || reason.code === "insufficient_funds") return "insufficient_funds";
  if (authenticationFailures.has(reason.code ?? "") || authenticationFailures.has(reason.decline_code ?? "")) return "authentication_failed";
  return "card_declined";
}

/** The id of a field Stripe sends either as an id or, when expanded, as the object. */
export function stripeIdOf(value: string | { id: string } | null | undefined): string | null {
  if (typeof value === "string") return value;
  return value?.id ?? null;
}

/**
 * A kept method names both Stripe objects an off-session charge needs: the customer the
 * method is attached to and the method. Opaque to the store.
 */
export interface SavedStripeMethod {
  customerId: string;
  paymentMethodId: string;
}

export function reusableMethodRefFor(saved: SavedStripeMethod): string {
  return `${saved.customerId}/${saved.paymentMethodId}`;
}

export function parseReusableMethodRef(ref: string): SavedStripeMethod | null {
  const match = /^(cus_[A-Za-z0-9]+)\/(pm_[A-Za-z0-9_]+)$/.exec(ref);
  if (!match?.[1] || !match[2]) return null;
  return { customerId: match[1], paymentMethodId: match[2] };
}

/** The kept method of a payment made with `setup_future_usage: off_session`, else null. */
/**
 * Bancontact and iDEAL are saved as the SEPA Direct Debit mandate Stripe generates from them;
 * later charges use that, never the original method (read from the expanded latest charge).
 */
function generatedSepaDebitOf(intent: Stripe.PaymentIntent): string | undefined {
  const charge = intent.latest_charge;
  if (!charge || typeof charge === "string") return undefined;
  const details = charge.payment_method_details;
  return stripeIdOf(details?.bancontact?.generated_sepa_debit ?? details?.ideal?.generated_sepa_debit ?? null) ?? undefined;
}

export function reusableMethodRefOf(intent: Stripe.PaymentIntent): string | null {
  if (intent.setup_future_usage !== "off_session") return null;
  const customerId = stripeIdOf(intent.customer);
  const paymentMethodId = generatedSepaDebitOf(intent) ?? stripeIdOf(intent.payment_method);
  if (!customerId || !paymentMethodId) return null;
  return reusableMethodRefFor({ customerId, paymentMethodId });
}

/** A PaymentIntent state the store has no outcome for (it never leaves one in it). */
export class UnexpectedIntentState extends Error {
  constructor(intent: Stripe.PaymentIntent, detail: string) {
    super(`Stripe PaymentIntent ${intent.id} is ${intent.status}: ${detail}`);
    this.name = "UnexpectedIntentState";
  }
}

export function outcomeOfIntent(intent: Stripe.PaymentIntent): PaymentOutcome {
  const providerRef = intent.id;
  switch (intent.status) {
    case "succeeded":
      return { status: "succeeded", providerRef, reusableMethodRef: reusableMethodRefOf(intent) };
    case "requires_action": {
      // Our confirmations ask for the redirect flow (use_stripe_sdk=false with a return_url), so
      // Stripe mostly names a page; Swish shows its own page with the QR code or the app link.
      const actionUrl = intent.next_action?.redirect_to_url?.url ?? intent.next_action?.swish_handle_redirect_or_display_qr_code?.hosted_instructions_url;
      if (actionUrl) return { status: "requires_action", providerRef, actionUrl };
      // A ConfirmationToken's use_stripe_sdk defaults to true, and Stripe may keep it: Stripe.js
      // finishes that next action in our page with the intent's client secret (handleNextAction).
      if (intent.next_action?.type === "use_stripe_sdk" && intent.client_secret) return { status: "requires_action", providerRef, clientSecret: intent.client_secret };
      // A next action nobody here can finish: the buyer is asked to pay another way instead of an error page.
      return { status: "declined", providerRef, code: "authentication_failed" };
    }
    case "processing":
      return { status: "processing", providerRef };
    case "requires_capture":
      // Authorised but not captured: not paid yet (we never ask for manual capture).
      return { status: "processing", providerRef };
    case "requires_payment_method":
      return { status: "declined", providerRef, code: declineCodeOf(intent.last_payment_error) };
    case "canceled":
      return { status: "declined", providerRef, code: "cancelled" };
    default:
      throw new UnexpectedIntentState(intent, "no outcome for this state");
  }
}
