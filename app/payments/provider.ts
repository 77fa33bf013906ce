/**
 * The one interface between the store and whoever moves the money (docs/decisions/0013-payments-and-test-gateway.md).
 * Each provider's folder also describes it to the rest of the store (`provider-description.ts`:
 * its settings, page origins and go-live checks), which the composition lists. Every call carries
 * an idempotency key, so a retry after a timeout or a killed server returns the first call's result
 * instead of charging again.
 */

export const declineCodes = [
  "card_declined",
  "insufficient_funds",
  "not_a_test_card",
  "authentication_failed",
  "cancelled",
  "provider_unavailable",
] as const;
export type DeclineCode = (typeof declineCodes)[number];

export type PaymentOutcome =
  | { status: "succeeded"; providerRef: string; reusableMethodRef: string | null }
  /** The buyer must authenticate (3-D Secure) or approve at their bank on the provider's page. */
  | { status: "requires_action"; providerRef: string; actionUrl: string; clientSecret?: undefined }
  /**
   * The buyer must authenticate in our page, through the provider's script (Stripe's `use_stripe_sdk`
   * next action, finished by `stripe.handleNextAction`). The secret lets that script finish this one
   * payment: it goes to the buyer's own browser only, never into a URL, a log or the database.
   */
  | { status: "requires_action"; providerRef: string; clientSecret: string; actionUrl?: undefined }
  /** Accepted, but not paid until the provider confirms (SEPA debits). */
  | { status: "processing"; providerRef: string }
  | { status: "declined"; providerRef: string | null; code: DeclineCode };

export interface StartPaymentInput {
  idempotencyKey: string;
  /**
   * Our payment attempt's id, kept at the provider with the payment (Stripe's metadata, PayPal's
   * invoice id), so the payment can be found and matched by it when its answer was lost.
   */
  attemptRef?: string;
  /** The buyer, for providers that keep a customer with the saved method (Stripe's Customer). */
  customer: { email: string; name: string; /** ISO 3166-1 alpha-2; methods such as Klarna need it. */ country?: string };
  /** Our order number, shown in the provider's dashboard; never personal data. */
  orderNumber: string;
  amountMinor: number;
  currency: string;
  method: string;
  /** What the buyer typed into the provider's fields on our page (the test gateway's card form). */
  details: Readonly<Record<string, string>>;
  /** Ask the provider to keep the method for later off-session charges (upsells). */
  saveMethod: boolean;
  /** Where the provider's own pages send the buyer back to. */
  returnUrl: string;
}

export interface ChargeSavedMethodInput {
  idempotencyKey: string;
  /** As in `StartPaymentInput`. */
  attemptRef?: string;
  orderNumber: string;
  amountMinor: number;
  currency: string;
  reusableMethodRef: string;
  returnUrl: string;
}

export interface RefundInput {
  idempotencyKey: string;
  providerRef: string;
  amountMinor: number;
}

export type RefundOutcome =
  | { status: "succeeded"; refundRef: string }
  /** Accepted, but the money moves later (SEPA, some banks): a `refund.settled` event says how it ended. */
  | { status: "pending"; refundRef: string }
  | { status: "failed"; reason: string };

/** What a verified provider webhook says happened to a payment, in our words. */
export type PaymentEvent =
  | { type: "payment.succeeded"; providerRef: string; reusableMethodRef: string | null; attemptRef?: string }
  | { type: "payment.processing"; providerRef: string; attemptRef?: string }
  | { type: "payment.failed"; providerRef: string; code: DeclineCode; attemptRef?: string }
  | {
      type: "payment.refunded";
      providerRef: string;
      /** All refunded of this payment so far, as the provider counts it (its pending refunds included). */
      amountRefundedMinor: number;
      /** The one refund the event is about, when the provider names it (PayPal), and where it stands. */
      refund?: { refundRef: string; status: "pending" | "succeeded" | "failed" };
    }
  /** The buyer's bank (Stripe) or the buyer at PayPal disputes the payment: the order is held out of fulfilment. */
  | { type: "payment.disputed"; providerRef: string; disputeRef: string }
  /** The dispute has ended; `outcome` is the provider's word for how (Stripe `won`, `lost`; PayPal's outcome code). */
  | { type: "payment.dispute_closed"; providerRef: string; disputeRef: string; outcome: string }
  /** A refund that was pending at the provider has ended: the money went back, or it did not. */
  | { type: "refund.settled"; providerRef: string; refundRef: string; status: "succeeded" | "failed" }
  /** The provider waits for us (PayPal: the buyer approved but never came back): ask it and act on the answer. */
  | { type: "payment.awaiting_store"; providerRef: string; attemptRef?: string }
  /** Verified, but nothing the store acts on: acknowledged and ignored. */
  | { type: "ignored"; providerType: string };

export interface VerifiedWebhook {
  /** The provider's own event id: events are stored by it and applied once. */
  eventId: string;
  event: PaymentEvent;
}

/** A webhook whose signature is missing, forged or stale: answered 400, nothing changes. */
export class WebhookRejected extends Error {}

export interface PaymentProvider {
  /** Its id; a provider whose pages send the buyer back to a page of its own lists it under that id in `content/commerce/provider-return-pages.json`. */
  readonly id: string;
  /**
   * How long the provider answers a repeated idempotency key with its first answer; after that the
   * same key would make a new payment or refund. Without it, a day is assumed.
   */
  readonly idempotencyKeyKeptMs?: number;
  startPayment(input: StartPaymentInput): Promise<PaymentOutcome>;
  /** A payment's state as the provider knows it, after the buyer came back from its pages. */
  retrievePayment(providerRef: string): Promise<PaymentOutcome>;
  /**
   * Closes a payment the store no longer wants (the buyer paid another way), so it can never take
   * money: Stripe cancels the PaymentIntent; a PayPal order is simply never captured. Answers the
   * payment's state afterwards: `succeeded` when the provider had taken the money already.
   */
  cancelPayment(providerRef: string): Promise<PaymentOutcome>;
  /** Charges a method kept from an earlier payment, without the buyer typing anything. */
  chargeSavedMethod(input: ChargeSavedMethodInput): Promise<PaymentOutcome>;
  refund(input: RefundInput): Promise<RefundOutcome>;
  /** Where a refund the provider took as pending stands now, for a provider that sends no event when one fails (PayPal). */
  retrieveRefund?(refundRef: string): Promise<RefundOutcome>;
  /** Checks a webhook's signature against the raw body and says what it means; throws WebhookRejected. */
  verifyWebhook?(headers: Headers, rawBody: string): Promise<VerifiedWebhook>;
}

/**
 * What a page needs to finish a payment's next action in the page (Stripe's `use_stripe_sdk`): the intent's client secret, sent only
 * in the answer to the buyer's own form (never in a URL, a log or the database), and the return
 * path that asks the server how the payment ended (docs/decisions/0030-payment-attempts.md).
 */
export interface BrowserNextAction {
  clientSecret: string;
  returnPath: string;
}
