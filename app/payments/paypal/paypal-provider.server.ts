import type {
  ChargeSavedMethodInput,
  PaymentOutcome,
  PaymentProvider,
  RefundInput,
  RefundOutcome,
  StartPaymentInput,
  VerifiedWebhook,
} from "../provider";
import { minorToPayPalValue } from "./paypal-amounts";
import { createPayPalApi, idSegment, PayPalApiError, type PayPalAnswer, type PayPalApi } from "./paypal-api.server";
import { textAt } from "./json-fields";
import { approvalLinkOf, checkoutOrderBody, readOrder, refundableCapture, vaultedOrderBody, type OrderRequest, type PayPalShipping } from "./paypal-orders.server";
import { verifyPayPalWebhook } from "./paypal-webhooks.server";

/**
 * PayPal behind our payment interface (decisions 0013 and 0015): Orders v2 over fetch, the buyer's account kept
 * on the first successful payment for one-click upsells, webhooks checked by PayPal's
 * verification API.
 *
 * Reference: `providerRef` is always the PayPal order id. It exists from the first call, is what
 * webhooks and the buyer's return name, and stays the same through approval and capture. Refunds
 * need the capture id: they read the order and refund its capture (one extra GET per refund).
 */

export const payPalApiUrls = { live: "https://api-m.paypal.com", sandbox: "https://api-m.sandbox.paypal.com" } as const;

/** Every origin of PayPal's REST API, live and sandbox (the go-live check refuses the sandbox on its own). */
export const payPalApiOrigins: readonly string[] = [payPalApiUrls.live, payPalApiUrls.sandbox, "https://api.paypal.com", "https://api.sandbox.paypal.com"];

export interface PayPalProviderOptions {
  clientId: string;
  clientSecret: string;
  /** The id PayPal gave the webhook registered for `/webhooks/paypal`. */
  webhookId: string;
  /** `payPalApiUrls.live`, `payPalApiUrls.sandbox`, or a local fake. */
  apiUrl: string;
  /** Our own origin: PayPal's pages send the buyer back to `publicUrl` + the payment's return path. */
  publicUrl: string;
  /** Milliseconds since the epoch; tests move it to expire tokens and age webhooks. */
  now?: () => number;
  /** A call without an answer after this long counts as failed (default 30 s). */
  timeoutMs?: number;
  /** How far a webhook's transmission time may be from now (default 300 s). */
  webhookToleranceSeconds?: number;
}

/** The shipping address is optional until the payment interface carries one: without it, NO_SHIPPING. */
export interface PayPalStartPaymentInput extends StartPaymentInput {
  shipping?: PayPalShipping;
}

export interface PayPalChargeSavedMethodInput extends ChargeSavedMethodInput {
  shipping?: PayPalShipping;
}

export interface PayPalProvider extends PaymentProvider {
  readonly id: "paypal";
  startPayment(input: PayPalStartPaymentInput): Promise<PaymentOutcome>;
  chargeSavedMethod(input: PayPalChargeSavedMethodInput): Promise<PaymentOutcome>;
  verifyWebhook(headers: Headers, rawBody: string): Promise<VerifiedWebhook>;
  retrieveRefund(refundRef: string): Promise<RefundOutcome>;
}

export type { PayPalShipping };

function requireText(value: string, option: string): string {
  if (!value.trim()) throw new Error(`PayPal provider: ${option} is empty`);
  return value;
}

function requireHttpUrl(value: string, option: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PayPal provider: ${option} is not a URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`PayPal provider: ${option} must be an http(s) URL`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

/** Our return path made absolute, and the same with a marker for a buyer who cancelled at PayPal. */
export function payPalReturnUrls(publicUrl: string, returnPath: string): { returnUrl: string; cancelUrl: string } {
  // Only a path of our own site: PayPal must never send buyers elsewhere.
  if (!/^\/(?![/\\])/.test(returnPath) || returnPath.includes("\\")) throw new Error(`PayPal return path must be a path on our site, got ${JSON.stringify(returnPath)}`);
  const returnUrl = new URL(`${publicUrl}${returnPath}`);
  const cancelUrl = new URL(returnUrl);
  cancelUrl.searchParams.set("cancelled", "1");
  return { returnUrl: returnUrl.toString(), cancelUrl: cancelUrl.toString() };
}

/** Capture refusals that mean the buyer's money cannot be taken (rather than a mistake of ours). */
const awaitingBuyerIssues = ["ORDER_NOT_APPROVED"];

/**
 * Capture refusals that send the buyer back to PayPal: "instruct the buyer to return to PayPal"
 * and "redirect the payer to select another funding source" (Orders v2, capture's 422 answers;
 * https://developer.paypal.com/docs/checkout/standard/customize/handle-funding-failures/).
 */
const payerActionIssues = ["PAYER_ACTION_REQUIRED", "REDIRECT_PAYER_FOR_ALTERNATE_FUNDING"];

function isSuccess(answer: PayPalAnswer): boolean {
  return answer.status >= 200 && answer.status < 300;
}

function failure(operation: string, answer: PayPalAnswer): PayPalApiError {
  return new PayPalApiError(operation, answer.status, answer.body);
}

export function createPayPalProvider(options: PayPalProviderOptions): PayPalProvider {
  const publicUrl = requireHttpUrl(options.publicUrl, "publicUrl");
  const now = options.now ?? Date.now;
  const api: PayPalApi = createPayPalApi({
    clientId: requireText(options.clientId, "clientId"),
    clientSecret: requireText(options.clientSecret, "clientSecret"),
    apiUrl: requireHttpUrl(options.apiUrl, "apiUrl"),
    now,
    timeoutMs: options.timeoutMs ?? 30_000,
  });
  const webhookCheck = { api, webhookId: requireText(options.webhookId, "webhookId"), now, toleranceSeconds: options.webhookToleranceSeconds ?? 300 };

  async function getOrder(orderId: string): Promise<PayPalAnswer> {
    const path = `/v2/checkout/orders/${idSegment(orderId, "order")}`;
    const answer = await api.call("GET", path);
    if (!isSuccess(answer) && answer.status !== 404) throw failure(`GET ${path}`, answer);
    return answer;
  }

  /** An order in our words; an approved one is captured first. */
  async function settle(order: unknown): Promise<PaymentOutcome> {
    const reading = readOrder(order);
    return reading.kind === "outcome" ? reading.outcome : capture(reading.orderId, textAt(order, "update_time"));
  }

  /**
   * Takes the money of an approved order; the request id makes a repeated capture return the
   * first. It names the order's state (`update_time`): PayPal answers a repeated id with the first
   * answer, so after the buyer acted again at PayPal the next capture must be a new request.
   */
  async function capture(orderId: string, orderUpdatedAt: string | undefined): Promise<PaymentOutcome> {
    const path = `/v2/checkout/orders/${idSegment(orderId, "order")}/capture`;
    const requestId = orderUpdatedAt ? `${orderId}:capture:${orderUpdatedAt}` : `${orderId}:capture`;
    const answer = await api.call("POST", path, { json: {}, requestId });
    if (isSuccess(answer)) return settledAfterCapture(answer.body);
    if (answer.status === 404) return { status: "declined", providerRef: orderId, code: "cancelled" };
    if (answer.status !== 422) throw failure(`POST ${path}`, answer);
    const issues = failure(`POST ${path}`, answer).issues;
    if (issues.some((issue) => payerActionIssues.includes(issue))) return payerAction(orderId, answer.body);
    // The buyer's funding source failed: "restart the payment so the payer can select a different
    // payment option" (https://developer.paypal.com/docs/checkout/standard/customize/handle-funding-failures/),
    // on the page the refusal links. Without one, it is a decline the buyer can answer with another method.
    if (issues.includes("INSTRUMENT_DECLINED")) {
      const restart = approvalLinkOf(answer.body);
      return restart ? { status: "requires_action", providerRef: orderId, actionUrl: restart } : { status: "declined", providerRef: orderId, code: "card_declined" };
    }
    if (issues.includes("ORDER_ALREADY_CAPTURED") || issues.some((issue) => awaitingBuyerIssues.includes(issue))) {
      const current = await getOrder(orderId);
      if (current.status === 404) return { status: "declined", providerRef: orderId, code: "cancelled" };
      return settledAfterCapture(current.body);
    }
    // TRANSACTION_REFUSED and the like: PayPal would not take the money.
    return { status: "declined", providerRef: orderId, code: "card_declined" };
  }

  /** The buyer must act at PayPal again: the refusal's own link, else the order's approval page. */
  async function payerAction(orderId: string, refusal: unknown): Promise<PaymentOutcome> {
    let actionUrl = approvalLinkOf(refusal);
    if (!actionUrl) {
      const current = await getOrder(orderId);
      if (current.status === 404) return { status: "declined", providerRef: orderId, code: "cancelled" };
      actionUrl = approvalLinkOf(current.body);
    }
    if (!actionUrl) throw new Error(`PayPal order ${orderId} needs the buyer but names no page for them`);
    return { status: "requires_action", providerRef: orderId, actionUrl };
  }

  /** Creates an order and reads it in our words; a 422 means PayPal will not take this payment at all. */
  async function createOrder(body: unknown, requestId: string): Promise<PaymentOutcome> {
    const answer = await api.call("POST", "/v2/checkout/orders", { json: body, requestId });
    if (isSuccess(answer)) return settle(answer.body);
    // PayPal refused the order before the buyer saw it (account or currency restrictions):
    // the buyer can choose another method.
    if (answer.status === 422) return { status: "declined", providerRef: null, code: "provider_unavailable" };
    throw failure("POST /v2/checkout/orders", answer);
  }

  function settledAfterCapture(order: unknown): PaymentOutcome {
    const reading = readOrder(order);
    if (reading.kind === "approved") throw new Error(`PayPal order ${reading.orderId} is still approved after its capture`);
    return reading.outcome;
  }

  function orderRequest(input: { orderNumber: string; attemptRef?: string; amountMinor: number; currency: string; shipping?: PayPalShipping }): OrderRequest {
    return { orderNumber: input.orderNumber, attemptRef: input.attemptRef, amountMinor: input.amountMinor, currency: input.currency, shipping: input.shipping };
  }

  return {
    // PayPal sends the buyer back to a page of its own, `/paypal-confirm/:from`, named after the step
    // the buyer continues to: content/commerce/provider-return-pages.json lists it for the route table.
    id: "paypal",

    async startPayment(input) {
      const urls = payPalReturnUrls(publicUrl, input.returnUrl);
      return createOrder(checkoutOrderBody(orderRequest(input), urls, input.saveMethod), input.idempotencyKey);
    },

    async retrievePayment(providerRef) {
      const answer = await getOrder(providerRef);
      // PayPal forgets orders the buyer never approved once they expire.
      if (answer.status === 404) return { status: "declined", providerRef, code: "cancelled" };
      return settle(answer.body);
    },

    async cancelPayment(providerRef) {
      // Orders v2 has no way to void an order of intent CAPTURE: it expires unless captured, and
      // this provider captures only through `retrievePayment`, which the store no longer calls for
      // a closed attempt. Only a capture made elsewhere (PayPal's own retry) can have taken money.
      const answer = await getOrder(providerRef);
      if (answer.status === 404) return { status: "declined", providerRef, code: "cancelled" };
      const reading = readOrder(answer.body);
      if (reading.kind === "outcome" && (reading.outcome.status === "succeeded" || reading.outcome.status === "processing")) return reading.outcome;
      return { status: "declined", providerRef, code: "cancelled" };
    },

    async chargeSavedMethod(input) {
      const urls = payPalReturnUrls(publicUrl, input.returnUrl);
      const body = vaultedOrderBody(orderRequest(input), input.reusableMethodRef, urls);
      const answer = await api.call("POST", "/v2/checkout/orders", { json: body, requestId: input.idempotencyKey });
      if (answer.status === 400 || answer.status === 422) {
        // PayPal will not charge the kept account silently: an id it does not know is a 400, a
        // revoked or refused one a 422 (Orders v2 documents no 404 here). Nothing was charged; the
        // buyer, still on the upsell page, approves this one payment at PayPal instead. Its own
        // request id keeps a retry on the same order.
        return createOrder(checkoutOrderBody(orderRequest(input), urls, false), `${input.idempotencyKey}:on-session`);
      }
      if (!isSuccess(answer)) throw failure("POST /v2/checkout/orders", answer);
      const outcome = await settle(answer.body);
      // The account stays kept after a vaulted payment even when PayPal does not repeat its id.
      return outcome.status === "succeeded" ? { ...outcome, reusableMethodRef: outcome.reusableMethodRef ?? input.reusableMethodRef } : outcome;
    },

    async refund(input: RefundInput): Promise<RefundOutcome> {
      if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0) return { status: "failed", reason: "a refund needs a positive amount" };
      const order = await getOrder(input.providerRef);
      if (order.status === 404) return { status: "failed", reason: "PayPal does not know this order" };
      const paid = refundableCapture(order.body);
      if (!paid) return { status: "failed", reason: "the order has no captured payment" };
      const path = `/v2/payments/captures/${idSegment(paid.id, "capture")}/refund`;
      const amount = { value: minorToPayPalValue(input.amountMinor, paid.currency), currency_code: paid.currency };
      const answer = await api.call("POST", path, { json: { amount }, requestId: input.idempotencyKey });
      if (answer.status === 422 || answer.status === 404) {
        const refused = failure(`POST ${path}`, answer);
        return { status: "failed", reason: `PayPal refused the refund: ${refused.issues.join(", ") || refused.errorName || answer.status}` };
      }
      if (!isSuccess(answer)) throw failure(`POST ${path}`, answer);
      const refundId = textAt(answer.body, "id");
      const refundStatus = textAt(answer.body, "status");
      if (!refundId) throw new Error("PayPal answered a refund without an id");
      return refundOutcome(refundId, refundStatus);
    },

    // PayPal sends PAYMENT.CAPTURE.REFUNDED when a pending refund completes, but no event when it
    // fails: only asking finds a failed one (`pollPendingRefunds` in orders/).
    async retrieveRefund(refundRef: string): Promise<RefundOutcome> {
      const path = `/v2/payments/refunds/${idSegment(refundRef, "refund")}`;
      const answer = await api.call("GET", path);
      if (!isSuccess(answer)) throw failure(`GET ${path}`, answer);
      return refundOutcome(refundRef, textAt(answer.body, "status"));
    },

    verifyWebhook(headers, rawBody) {
      return verifyPayPalWebhook(webhookCheck, headers, rawBody);
    },
  };
}

/**
 * A refund's status in our words. PENDING is not done: PayPal has not sent the money yet (an eCheck,
 * a bank), tells of its completion by PAYMENT.CAPTURE.REFUNDED and of a failure by nothing but the
 * refund's own record (FAILED, CANCELLED), which the store asks for later
 * (https://developer.paypal.com/docs/api/payments/v2/#refunds_get).
 */
function refundOutcome(refundId: string, status: string | undefined): RefundOutcome {
  if (status === "COMPLETED") return { status: "succeeded", refundRef: refundId };
  if (status === "PENDING") return { status: "pending", refundRef: refundId };
  return { status: "failed", reason: `PayPal refund ${refundId} is ${status ?? "without status"}` };
}
