import { WebhookRejected, type PaymentEvent, type VerifiedWebhook } from "../provider";
import { asObject, at, listAt, parseJson, textAt } from "./json-fields";
import { idSegment, type PayPalApi } from "./paypal-api.server";
import { payPalValueToMinor } from "./paypal-amounts";
import { vaultIdOf } from "./paypal-orders.server";

/**
 * PayPal webhooks (`/webhooks/paypal`): checked by PayPal's own verification API, refused when
 * the transmission time is too far from now (a replayed delivery), and told in our words with
 * the PayPal order id as the payment's reference.
 */

export interface WebhookCheck {
  api: PayPalApi;
  webhookId: string;
  now: () => number;
  toleranceSeconds: number;
}

const signatureHeaders = {
  auth_algo: "paypal-auth-algo",
  cert_url: "paypal-cert-url",
  transmission_id: "paypal-transmission-id",
  transmission_sig: "paypal-transmission-sig",
  transmission_time: "paypal-transmission-time",
} as const;

type SignatureFields = Record<keyof typeof signatureHeaders, string>;

function signatureFields(headers: Headers): SignatureFields {
  const fields: Partial<SignatureFields> = {};
  for (const [field, header] of Object.entries(signatureHeaders) as [keyof SignatureFields, string][]) {
    const value = headers.get(header)?.trim();
    if (!value) throw new WebhookRejected(`PayPal webhook without the ${header} header`);
    fields[field] = value;
  }
  return fields as SignatureFields;
}

function checkTransmissionTime(time: string, check: WebhookCheck): void {
  const sentAt = Date.parse(time);
  if (Number.isNaN(sentAt)) throw new WebhookRejected("PayPal webhook with an unreadable transmission time");
  if (Math.abs(check.now() - sentAt) > check.toleranceSeconds * 1000) throw new WebhookRejected("PayPal webhook outside the accepted time window");
}

export async function verifyPayPalWebhook(check: WebhookCheck, headers: Headers, rawBody: string): Promise<VerifiedWebhook> {
  const fields = signatureFields(headers);
  checkTransmissionTime(fields.transmission_time, check);
  const event = asObject(parseJson(rawBody));
  const eventId = textAt(event, "id");
  const eventType = textAt(event, "event_type");
  if (!event || !eventId || !eventType) throw new WebhookRejected("PayPal webhook body is not an event");

  // The event goes to PayPal as the bytes it sent: re-serializing could change them and fail the check.
  const prefix = JSON.stringify({ ...fields, webhook_id: check.webhookId });
  const jsonText = `${prefix.slice(0, -1)},"webhook_event":${rawBody}}`;
  const answer = await check.api.call("POST", "/v1/notifications/verify-webhook-signature", { jsonText });
  // A 4xx means PayPal would not check this delivery at all; 5xx and network errors have thrown,
  // so the route answers 5xx and PayPal delivers again later.
  if (answer.status >= 300) throw new WebhookRejected(`PayPal refused to check the webhook (${answer.status})`);
  const verdict = textAt(answer.body, "verification_status");
  if (verdict !== "SUCCESS") throw new WebhookRejected("PayPal webhook signature did not verify");
  return { eventId, event: await paymentEvent(check.api, eventType, event.resource) };
}

/** The events `paymentEvent` acts on: the go-live check wants the webhook to send them all. */
export const payPalWebhookEventTypes = [
  "CHECKOUT.ORDER.APPROVED",
  "CHECKOUT.PAYMENT-APPROVAL.REVERSED",
  "PAYMENT.CAPTURE.COMPLETED",
  "PAYMENT.CAPTURE.PENDING",
  "PAYMENT.CAPTURE.DENIED",
  "PAYMENT.CAPTURE.DECLINED",
  "PAYMENT.CAPTURE.REFUNDED",
  "PAYMENT.CAPTURE.REVERSED",
  "CUSTOMER.DISPUTE.CREATED",
  "CUSTOMER.DISPUTE.RESOLVED",
] as const;

/** Our attempt's id, sent as the purchase unit's `invoice_id`, which captures carry too: it finds a payment whose order id never reached us. */
function attemptRefOf(source: unknown): { attemptRef?: string } {
  const attemptRef = typeof source === "string" ? source : textAt(source, "invoice_id");
  return attemptRef ? { attemptRef } : {};
}

async function paymentEvent(api: PayPalApi, eventType: string, resource: unknown): Promise<PaymentEvent> {
  const ignored: PaymentEvent = { type: "ignored", providerType: eventType };
  switch (eventType) {
    case "PAYMENT.CAPTURE.COMPLETED": {
      const orderId = await orderIdOfCapture(api, resource);
      // The capture does not name the kept account; the order does, and a webhook that arrives
      // before the buyer returns must not lose it.
      return orderId ? { type: "payment.succeeded", providerRef: orderId, reusableMethodRef: await vaultIdOfOrder(api, orderId), ...attemptRefOf(resource) } : ignored;
    }
    case "PAYMENT.CAPTURE.PENDING": {
      const orderId = await orderIdOfCapture(api, resource);
      return orderId ? { type: "payment.processing", providerRef: orderId, ...attemptRefOf(resource) } : ignored;
    }
    case "PAYMENT.CAPTURE.DENIED":
    case "PAYMENT.CAPTURE.DECLINED": {
      const orderId = await orderIdOfCapture(api, resource);
      return orderId ? { type: "payment.failed", providerRef: orderId, code: "card_declined" } : ignored;
    }
    // PAYMENT.CAPTURE.REVERSED: "PayPal reverses a payment capture" (a chargeback decided for the
    // buyer, or PayPal taking the money back). Its resource is a refund of the capture and the
    // money has left us as with a refund we made, so the order follows it as refunded by the
    // amount PayPal names (https://developer.paypal.com/api/rest/webhooks/event-names/#link-payments).
    // A dispute still open arrives as CUSTOMER.DISPUTE.CREATED instead.
    case "PAYMENT.CAPTURE.REFUNDED":
    case "PAYMENT.CAPTURE.REVERSED":
      return refundedEvent(api, resource, ignored);
    case "CHECKOUT.ORDER.APPROVED": {
      // Approved at PayPal by a buyer who may never come back to us: the store captures it.
      const orderId = textAt(resource, "id");
      return orderId ? { type: "payment.awaiting_store", providerRef: orderId, ...attemptRefOf(textAt(resource, "purchase_units", 0, "invoice_id")) } : ignored;
    }
    case "CHECKOUT.PAYMENT-APPROVAL.REVERSED": {
      // "A problem occurred after the buyer approved the order but before you captured the
      // payment": PayPal will not let it be captured, so the payment failed and the buyer may pay
      // again (https://developer.paypal.com/docs/checkout/standard/customize/handle-uncaptured-payments/).
      const orderId = textAt(resource, "order_id") ?? textAt(resource, "id");
      return orderId ? { type: "payment.failed", providerRef: orderId, code: "card_declined" } : ignored;
    }
    // A dispute names the capture it is about as the seller's transaction
    // (https://developer.paypal.com/docs/api/customer-disputes/v1/); resolved, it carries its outcome.
    case "CUSTOMER.DISPUTE.CREATED":
    case "CUSTOMER.DISPUTE.RESOLVED": {
      const disputeRef = textAt(resource, "dispute_id");
      const captureId = textAt(resource, "disputed_transactions", 0, "seller_transaction_id");
      const orderId = captureId && disputeRef ? await orderIdOfCaptureId(api, captureId) : undefined;
      if (!orderId || !disputeRef) return ignored;
      if (eventType === "CUSTOMER.DISPUTE.CREATED") return { type: "payment.disputed", providerRef: orderId, disputeRef };
      return { type: "payment.dispute_closed", providerRef: orderId, disputeRef, outcome: textAt(resource, "dispute_outcome", "outcome_code") ?? "RESOLVED" };
    }
    default:
      return ignored;
  }
}

/** A refund's `status` (Payments v2 `refund_status`) in our words. */
const refundStatuses: Readonly<Record<string, "pending" | "succeeded" | "failed">> = { PENDING: "pending", COMPLETED: "succeeded", FAILED: "failed", CANCELLED: "failed" };

/** A refund of a capture, ours or one made in PayPal's dashboard (which PayPal always announces to the buyer: the store sends no e-mail of its own for it). */
async function refundedEvent(api: PayPalApi, refund: unknown, ignored: PaymentEvent): Promise<PaymentEvent> {
  const orderId = textAt(refund, "supplementary_data", "related_ids", "order_id") ?? (await orderIdOfRefund(api, refund));
  // All refunds of the capture so far when PayPal says so, else this refund's amount.
  const amount = asObject(at(refund, "seller_payable_breakdown", "total_refunded_amount")) ?? asObject(at(refund, "amount"));
  const value = textAt(amount, "value");
  const currency = textAt(amount, "currency_code");
  const amountMinor = value && currency ? minorOrUndefined(value, currency) : undefined;
  if (!orderId || amountMinor === undefined) return ignored;
  const refundId = textAt(refund, "id");
  const status = refundStatuses[textAt(refund, "status") ?? ""];
  return { type: "payment.refunded", providerRef: orderId, amountRefundedMinor: amountMinor, ...(refundId && status ? { refund: { refundRef: refundId, status } } : {}) };
}

/** A currency we do not sell in cannot be one of our payments: acknowledged, not retried forever. */
function minorOrUndefined(value: string, currency: string): number | undefined {
  try {
    return payPalValueToMinor(value, currency);
  } catch {
    return undefined;
  }
}

/** A refund names its capture in `related_ids` or in its `up` link. */
async function orderIdOfRefund(api: PayPalApi, refund: unknown): Promise<string | undefined> {
  const related = textAt(refund, "supplementary_data", "related_ids", "capture_id");
  const upLink = textAt(
    listAt(refund, "links").find((link) => textAt(link, "rel") === "up"),
    "href",
  );
  const captureId = related ?? /\/v2\/payments\/captures\/([^/?#]+)$/.exec(upLink ?? "")?.[1];
  return captureId ? orderIdOfCaptureId(api, captureId) : undefined;
}

/** The order of a capture resource: named in the event, or asked of PayPal. */
async function orderIdOfCapture(api: PayPalApi, capture: unknown): Promise<string | undefined> {
  const named = textAt(capture, "supplementary_data", "related_ids", "order_id");
  if (named) return named;
  const captureId = textAt(capture, "id");
  return captureId ? orderIdOfCaptureId(api, captureId) : undefined;
}

async function orderIdOfCaptureId(api: PayPalApi, captureId: string): Promise<string | undefined> {
  const answer = await api.call("GET", `/v2/payments/captures/${idSegment(captureId, "capture")}`);
  // A capture PayPal does not know (or not from the Orders API) is nothing of ours.
  if (answer.status === 404) return undefined;
  if (answer.status >= 300) throw new Error(`PayPal answered ${answer.status} for capture ${captureId}`);
  return textAt(answer.body, "supplementary_data", "related_ids", "order_id");
}

async function vaultIdOfOrder(api: PayPalApi, orderId: string): Promise<string | null> {
  const answer = await api.call("GET", `/v2/checkout/orders/${idSegment(orderId, "order")}`);
  if (answer.status === 404) return null;
  if (answer.status >= 300) throw new Error(`PayPal answered ${answer.status} for order ${orderId}`);
  return vaultIdOf(answer.body);
}
