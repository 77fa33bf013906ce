import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import type { ChargeSavedMethodInput, PaymentOutcome, PaymentProvider, RefundInput, RefundOutcome, StartPaymentInput, VerifiedWebhook } from "../provider";
import { stripeFailure } from "./stripe-errors.server";
import { declineCodeOf, outcomeOfIntent, parseReusableMethodRef, type SavedStripeMethod } from "./stripe-outcomes.server";
import { verifyStripeWebhook, type StripeWebhookCheck } from "./stripe-webhooks.server";

/**
 * Stripe behind our payment interface (decisions 0015 and 0023), through the official SDK. The browser's
 * Payment Element turns what the buyer typed into a PaymentMethod (`pm_...`) or a
 * ConfirmationToken (`ctoken_...`); the server creates a Customer and a confirmed PaymentIntent.
 *
 * Next actions follow Stripe's redirect flow: every confirmation on the server sends
 * `use_stripe_sdk: false` with a `return_url`, so a `requires_action` normally names a page for the
 * buyer (3-D Secure's `redirect_to_url`, Swish's hosted instructions) and works without our
 * JavaScript (docs.stripe.com/payments/3d-secure/authentication-flow, "Manually handle the redirect";
 * docs.stripe.com/payments/finalize-payments-on-the-server). A ConfirmationToken's own
 * `use_stripe_sdk` defaults to `true`; should Stripe keep it, the answer is a `use_stripe_sdk` next
 * action, handed to the buyer's browser as the intent's client secret for `stripe.handleNextAction`
 * (docs/decisions/0030-payment-attempts.md).
 *
 * Reference: `providerRef` is the PaymentIntent id. Every POST carries an idempotency key derived
 * from the caller's, one per step (`:customer`, `:intent`, `:on-session`, `:refund`), so a retry
 * after a timeout replays Stripe's first answer instead of charging again. Stripe keeps keys for
 * 24 hours.
 */

export interface StripeProviderOptions {
  /** `sk_live_...`/`sk_test_...` (or a restricted `rk_` key). */
  secretKey: string;
  /** The signing secret of the webhook endpoint (`whsec_...`). */
  webhookSecret: string;
  /** Our own origin: Stripe's pages send the buyer back to `publicUrl` + the payment's return path. */
  publicUrl: string;
  /** Another API origin, such as a local fake in tests; default Stripe's own. */
  apiUrl?: string;
  /** A call without an answer after this long counts as failed (default 20 s; a retry may follow). */
  timeoutMs?: number;
  /**
   * How often the SDK itself retries a failed call (default 1). Retries carry the same
   * idempotency key, so they cannot charge twice.
   */
  maxNetworkRetries?: number;
  /** How old a webhook signature may be (default 300 s). */
  webhookToleranceSeconds?: number;
  /** Milliseconds since the epoch; tests move it to age webhooks. */
  now?: () => number;
}

export interface StripeProvider extends PaymentProvider {
  readonly id: "stripe";
  verifyWebhook(headers: Headers, rawBody: string): Promise<VerifiedWebhook>;
}

function requireText(value: string, option: string): string {
  if (!value.trim()) throw new Error(`Stripe provider: ${option} is empty`);
  return value;
}

function requireSecretKey(value: string): string {
  // Names the expected shape only: the value itself must not reach a log line.
  if (!/^(?:sk|rk)_(?:live|test)_\S+$/.test(value)) throw new Error("Stripe provider: secretKey is not a Stripe secret key (sk_live_/sk_test_/rk_...)");
  return value;
}

function parseHttpUrl(value: string, option: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`Stripe provider: ${option} is not a URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`Stripe provider: ${option} must be an http(s) URL`);
  return url;
}

/** Stripe's own origins: its API (the SDK's default) and Stripe.js, which must be loaded from Stripe. */
export const stripeOrigins = { api: "https://api.stripe.com", js: "https://js.stripe.com" } as const;

/** The SDK's host settings for another API origin; it always requests `/v1/...` there. */
export function apiHostSettings(apiUrl: string): { host: string; port: number; protocol: "http" | "https" } {
  const url = parseHttpUrl(apiUrl, "apiUrl");
  if (url.pathname !== "/" || url.search || url.username || url.password) throw new Error("Stripe provider: apiUrl must be an origin without path, query or credentials");
  const protocol = url.protocol === "http:" ? "http" : "https";
  const port = url.port ? Number(url.port) : protocol === "http" ? 80 : 443;
  return { host: url.hostname, port, protocol };
}

/** Our return path made absolute; only a path of our own site, so Stripe never sends buyers elsewhere. */
export function stripeReturnUrl(publicUrl: string, returnPath: string): string {
  if (!/^\/(?![/\\])/.test(returnPath) || returnPath.includes("\\")) throw new Error(`Stripe return path must be a path on our site, got ${JSON.stringify(returnPath.slice(0, 200))}`);
  return new URL(`${publicUrl}${returnPath}`).toString();
}

function requireAmount(amountMinor: number): number {
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) throw new Error(`Stripe provider: amount ${amountMinor} is not a positive whole number of minor units`);
  return amountMinor;
}

function stripeCurrency(currency: string): string {
  if (!/^[A-Za-z]{3}$/.test(currency)) throw new Error(`Stripe provider: ${JSON.stringify(currency)} is not a currency code`);
  return currency.toLowerCase();
}

/** What the Payment Element produced: a PaymentMethod, or a ConfirmationToken (which also carries mandates). */
type BrowserMethod = { payment_method: string } | { confirmation_token: string };

/** Methods the buyer approves on their own page for every payment: they cannot be charged again. */
const stripeRedirectMethods = ["swish", "mobilepay", "twint", "eps", "klarna"] as const;
type StripeRedirectMethod = (typeof stripeRedirectMethods)[number];

function isRedirectMethod(method: string): method is StripeRedirectMethod {
  return (stripeRedirectMethods as readonly string[]).includes(method);
}

function browserMethodOf(details: Readonly<Record<string, string>>): BrowserMethod | null {
  const value = (details.paymentMethod ?? "").trim();
  if (/^pm_[A-Za-z0-9_]+$/.test(value)) return { payment_method: value };
  if (/^ctoken_[A-Za-z0-9_]+$/.test(value)) return { confirmation_token: value };
  return null;
}

type StripeSdkError = InstanceType<typeof Stripe.errors.StripeError>;

function isCardError(error: StripeSdkError): boolean {
  return error instanceof Stripe.errors.StripeCardError || error.rawType === "card_error";
}

function needsAuthentication(error: StripeSdkError): boolean {
  return error.code === "authentication_required" || error.decline_code === "authentication_required";
}

/**
 * A refusal that is the buyer's method, not our mistake: a card decline, or a method Stripe does
 * not know or cannot use (the buyer can choose another). Null for everything else.
 */
function declinedBy(error: StripeSdkError): PaymentOutcome | null {
  const providerRef = error.payment_intent?.id ?? null;
  if (isCardError(error)) return { status: "declined", providerRef, code: declineCodeOf(error) };
  if (error instanceof Stripe.errors.StripeInvalidRequestError && (error.param === "payment_method" || error.param === "confirmation_token")) {
    return { status: "declined", providerRef, code: "card_declined" };
  }
  return null;
}

/** Our references on the PaymentIntent: the order's number for the dashboard, the attempt's id to find it again. */
function metadataOf(input: { orderNumber: string; attemptRef?: string }): Record<string, string> {
  return { order_number: input.orderNumber, ...(input.attemptRef ? { payment_id: input.attemptRef } : {}) };
}

export function createStripeProvider(options: StripeProviderOptions): StripeProvider {
  const secretKey = requireSecretKey(options.secretKey);
  const webhookSecret = requireText(options.webhookSecret, "webhookSecret");
  const secrets = [secretKey, webhookSecret];
  const parsedPublicUrl = parseHttpUrl(options.publicUrl, "publicUrl");
  const publicUrl = `${parsedPublicUrl.origin}${parsedPublicUrl.pathname}`.replace(/\/+$/, "");
  const stripe = new Stripe(secretKey, {
    ...(options.apiUrl === undefined ? {} : apiHostSettings(options.apiUrl)),
    timeout: options.timeoutMs ?? 20_000,
    maxNetworkRetries: options.maxNetworkRetries ?? 1,
    telemetry: false,
  });
  const webhookCheck: StripeWebhookCheck = {
    stripe,
    secret: webhookSecret,
    toleranceSeconds: options.webhookToleranceSeconds ?? 300,
    now: options.now ?? Date.now,
  };

  /** Runs an SDK call; a refusal of the buyer's method comes back as a decline, anything else throws ours. */
  async function attempt<T>(operation: string, call: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; declined: PaymentOutcome; error: StripeSdkError }> {
    try {
      return { ok: true, value: await call() };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeError) {
        const declined = declinedBy(error);
        if (declined) return { ok: false, declined, error };
      }
      throw stripeFailure(operation, error, secrets);
    }
  }

  /** Brings the buyer back on-session for a kept method the issuer wants authenticated. */
  async function confirmOnSession(intentId: string, saved: SavedStripeMethod, returnUrl: string, idempotencyKey: string): Promise<PaymentOutcome> {
    const operation = `POST /v1/payment_intents/${intentId}/confirm`;
    const answer = await attempt(operation, () =>
      stripe.paymentIntents.confirm(
        intentId,
        // Saving again after the buyer authenticates helps later off-session charges go through.
        { payment_method: saved.paymentMethodId, return_url: returnUrl, use_stripe_sdk: false, setup_future_usage: "off_session" },
        { idempotencyKey: `${idempotencyKey}:on-session` },
      ),
    );
    return answer.ok ? outcomeOfIntent(answer.value) : answer.declined;
  }

  return {
    id: "stripe",
    // Stripe keeps an idempotency key 24 hours (API reference, "Idempotent requests"): after that the
    // same key would make a new payment or refund.
    idempotencyKeyKeptMs: 24 * 60 * 60 * 1000,

    async startPayment(input: StartPaymentInput): Promise<PaymentOutcome> {
      const amount = requireAmount(input.amountMinor);
      const currency = stripeCurrency(input.currency);
      const returnUrl = stripeReturnUrl(publicUrl, input.returnUrl);
      const method = browserMethodOf(input.details);
      // A method approved on its own page each time (Swish, EPS, ...): Stripe sends the buyer there.
      if (!method && isRedirectMethod(input.method)) {
        const params: Stripe.PaymentIntentCreateParams = {
          amount,
          currency,
          allowed_payment_method_types: [input.method],
          payment_method_data: {
            type: input.method,
            billing_details: { email: input.customer.email, name: input.customer.name, ...(input.customer.country ? { address: { country: input.customer.country } } : {}) },
          },
          confirm: true,
          return_url: returnUrl,
          use_stripe_sdk: false,
          metadata: metadataOf(input),
        };
        const answer = await attempt("POST /v1/payment_intents", () => stripe.paymentIntents.create(params, { idempotencyKey: `${input.idempotencyKey}:intent` }));
        return answer.ok ? outcomeOfIntent(answer.value) : answer.declined;
      }
      // Nothing the Payment Element produced: the buyer has to enter the method again.
      if (!method) return { status: "declined", providerRef: null, code: "card_declined" };

      const customer = await attempt("POST /v1/customers", () =>
        stripe.customers.create({ email: input.customer.email, name: input.customer.name }, { idempotencyKey: `${input.idempotencyKey}:customer` }),
      );
      // Creating a customer involves no payment method, so no refusal is expected here.
      if (!customer.ok) throw stripeFailure("POST /v1/customers", customer.error, secrets);

      const params: Stripe.PaymentIntentCreateParams = {
        amount,
        currency,
        customer: customer.value.id,
        ...method,
        confirm: true,
        return_url: returnUrl,
        use_stripe_sdk: false,
        metadata: metadataOf(input),
        ...(input.saveMethod ? { setup_future_usage: "off_session" as const } : {}),
      };
      const answer = await attempt("POST /v1/payment_intents", () => stripe.paymentIntents.create(params, { idempotencyKey: `${input.idempotencyKey}:intent` }));
      return answer.ok ? outcomeOfIntent(answer.value) : answer.declined;
    },

    async retrievePayment(providerRef: string): Promise<PaymentOutcome> {
      if (!/^pi_[A-Za-z0-9_]+$/.test(providerRef)) throw new Error(`${JSON.stringify(providerRef.slice(0, 80))} is not a Stripe PaymentIntent id`);
      const operation = `GET /v1/payment_intents/${providerRef}`;
      try {
        // The latest charge names the SEPA mandate a Bancontact or iDEAL payment was saved as.
        return outcomeOfIntent(await stripe.paymentIntents.retrieve(providerRef, { expand: ["latest_charge"] }));
      } catch (error) {
        throw stripeFailure(operation, error, secrets);
      }
    },

    async cancelPayment(providerRef: string): Promise<PaymentOutcome> {
      if (!/^pi_[A-Za-z0-9_]+$/.test(providerRef)) throw new Error(`${JSON.stringify(providerRef.slice(0, 80))} is not a Stripe PaymentIntent id`);
      const operation = `POST /v1/payment_intents/${providerRef}/cancel`;
      try {
        // A key per try, not per intent: Stripe keeps a key's first answer 24 hours, refusals included, so
        // a fixed key would answer "processing" to every later try of an intent that has since succeeded.
        // Cancelling twice is harmless; the SDK's own retry of this try reuses the key.
        const intent = await stripe.paymentIntents.cancel(providerRef, { cancellation_reason: "abandoned" }, { idempotencyKey: `${providerRef}:cancel:${randomUUID()}` });
        return outcomeOfIntent(intent);
      } catch (error) {
        // Stripe cancels an intent only before it has taken the money (docs.stripe.com/api/payment_intents/cancel):
        // otherwise it answers payment_intent_unexpected_state with the intent, which says what happened.
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "payment_intent_unexpected_state" && error.payment_intent) {
          const intent = error.payment_intent;
          return intent.status === "canceled" ? { status: "declined", providerRef, code: "cancelled" } : outcomeOfIntent(intent);
        }
        throw stripeFailure(operation, error, secrets);
      }
    },

    async chargeSavedMethod(input: ChargeSavedMethodInput): Promise<PaymentOutcome> {
      const amount = requireAmount(input.amountMinor);
      const currency = stripeCurrency(input.currency);
      const returnUrl = stripeReturnUrl(publicUrl, input.returnUrl);
      const saved = parseReusableMethodRef(input.reusableMethodRef);
      // Not a method this provider kept: nothing can be charged without the buyer.
      if (!saved) return { status: "declined", providerRef: null, code: "card_declined" };

      const params: Stripe.PaymentIntentCreateParams = {
        amount,
        currency,
        customer: saved.customerId,
        payment_method: saved.paymentMethodId,
        off_session: true,
        confirm: true,
        // Stripe refuses an off-session confirmation without one while the dashboard's methods
        // apply (docs.stripe.com/payments/save-and-reuse, "Charge the saved payment method later").
        return_url: returnUrl,
        metadata: metadataOf(input),
      };
      const answer = await attempt("POST /v1/payment_intents", () => stripe.paymentIntents.create(params, { idempotencyKey: `${input.idempotencyKey}:intent` }));
      if (answer.ok) {
        const outcome = outcomeOfIntent(answer.value);
        // The method stays kept after an off-session charge, although this intent did not save it.
        return outcome.status === "succeeded" ? { ...outcome, reusableMethodRef: outcome.reusableMethodRef ?? input.reusableMethodRef } : outcome;
      }
      const intentId = answer.error.payment_intent?.id;
      // The issuer wants the buyer to authenticate: confirm the same intent on-session while they are on our page.
      if (isCardError(answer.error) && needsAuthentication(answer.error) && intentId) return confirmOnSession(intentId, saved, returnUrl, input.idempotencyKey);
      return answer.declined;
    },

    async refund(input: RefundInput): Promise<RefundOutcome> {
      if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0) return { status: "failed", reason: "a refund needs a positive whole amount" };
      if (!/^pi_[A-Za-z0-9_]+$/.test(input.providerRef)) return { status: "failed", reason: "not a Stripe PaymentIntent id" };
      const operation = "POST /v1/refunds";
      let refund: Stripe.Refund;
      try {
        refund = await stripe.refunds.create({ payment_intent: input.providerRef, amount: input.amountMinor }, { idempotencyKey: `${input.idempotencyKey}:refund` });
      } catch (error) {
        // Stripe refuses a refund above what is left, of an unpaid intent or of an unknown one: nothing moved.
        // A malformed request of ours (parameter_*) is a bug to surface, not a refusal.
        if (error instanceof Stripe.errors.StripeInvalidRequestError && !(error.code ?? "").startsWith("parameter_")) {
          return { status: "failed", reason: `Stripe refused the refund (${error.code ?? "invalid request"})` };
        }
        throw stripeFailure(operation, error, secrets);
      }
      if (refund.status === "succeeded") return { status: "succeeded", refundRef: refund.id };
      // Pending refunds (SEPA, some banks) and those waiting for the buyer's bank details are accepted
      // and end later (refund.updated / refund.failed); calling them failed would invite a second
      // refund under a new key, calling them succeeded would tell the buyer of money not yet sent.
      if (refund.status === "pending" || refund.status === "requires_action") return { status: "pending", refundRef: refund.id };
      return { status: "failed", reason: `Stripe refund ${refund.id} is ${refund.status ?? "without status"}` };
    },

    verifyWebhook(headers: Headers, rawBody: string): Promise<VerifiedWebhook> {
      return verifyStripeWebhook(webhookCheck, headers, rawBody);
    },
  };
}
