import type { PaymentOutcome } from "../provider";
import { minorToPayPalValue } from "./paypal-amounts";
import { asObject, at, listAt, textAt } from "./json-fields";

/**
 * What we send to PayPal's Orders v2 API and how its order objects read in our words. Pure
 * functions: the provider does the calls.
 */

/** Where the goods go; with it PayPal shows and keeps this address (seller protection needs it). */
export interface PayPalShipping {
  fullName: string;
  addressLine1: string;
  addressLine2?: string;
  city: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2, as PayPal wants it (`CH`, not our market code `CH-FR`). */
  countryCode: string;
}

export interface OrderRequest {
  orderNumber: string;
  /** Our payment attempt's id: the purchase unit's `invoice_id`, by which the order is found again. */
  attemptRef?: string;
  amountMinor: number;
  currency: string;
  shipping?: PayPalShipping;
}

function purchaseUnit(order: OrderRequest) {
  return {
    reference_id: order.orderNumber,
    custom_id: order.orderNumber,
    ...(order.attemptRef ? { invoice_id: order.attemptRef } : {}),
    amount: { currency_code: order.currency, value: minorToPayPalValue(order.amountMinor, order.currency) },
    ...(order.shipping ? { shipping: shippingOf(order.shipping) } : {}),
  };
}

function shippingOf(shipping: PayPalShipping) {
  return {
    type: "SHIPPING",
    name: { full_name: shipping.fullName },
    address: {
      address_line_1: shipping.addressLine1,
      ...(shipping.addressLine2 ? { address_line_2: shipping.addressLine2 } : {}),
      admin_area_2: shipping.city,
      postal_code: shipping.postalCode,
      country_code: shipping.countryCode,
    },
  };
}

function experienceContext(order: OrderRequest, returnUrl: string, cancelUrl: string) {
  return {
    return_url: returnUrl,
    cancel_url: cancelUrl,
    user_action: "PAY_NOW",
    shipping_preference: order.shipping ? "SET_PROVIDED_ADDRESS" : "NO_SHIPPING",
  };
}

/** A new order the buyer approves on PayPal's pages; with `vault`, PayPal keeps the account once paid. */
export function checkoutOrderBody(order: OrderRequest, urls: { returnUrl: string; cancelUrl: string }, vault: boolean) {
  return {
    intent: "CAPTURE",
    purchase_units: [purchaseUnit(order)],
    payment_source: {
      paypal: {
        experience_context: experienceContext(order, urls.returnUrl, urls.cancelUrl),
        ...(vault ? { attributes: { vault: { store_in_vault: "ON_SUCCESS", usage_type: "MERCHANT" } } } : {}),
      },
    },
  };
}

/**
 * An order paid from a kept PayPal account without the buyer. The return and cancel URLs only
 * matter when PayPal nevertheless asks the buyer to approve.
 */
export function vaultedOrderBody(order: OrderRequest, vaultId: string, urls: { returnUrl: string; cancelUrl: string }) {
  return {
    intent: "CAPTURE",
    purchase_units: [purchaseUnit(order)],
    payment_source: { paypal: { vault_id: vaultId, experience_context: experienceContext(order, urls.returnUrl, urls.cancelUrl) } },
  };
}

/** An order as we read it: a payment outcome, or approved by the buyer and waiting for our capture. */
export type OrderReading = { kind: "outcome"; outcome: PaymentOutcome } | { kind: "approved"; orderId: string };

export interface OrderCapture {
  id: string;
  status: string;
  currency: string;
}

/** The order's captures (intent CAPTURE has one purchase unit and, once paid, one capture). */
export function capturesOf(order: unknown): OrderCapture[] {
  return listAt(order, "purchase_units", 0, "payments", "captures").flatMap((capture) => {
    const id = textAt(capture, "id");
    const status = textAt(capture, "status");
    const currency = textAt(capture, "amount", "currency_code");
    return id && status && currency ? [{ id, status, currency }] : [];
  });
}

const paidCaptureStatuses = ["COMPLETED", "PARTIALLY_REFUNDED", "REFUNDED"];

/**
 * The capture refunds go to. A fully refunded one still counts: a retry of the refund that emptied
 * it must reach PayPal to get that refund back, and a new refund gets PayPal's own refusal.
 */
export function refundableCapture(order: unknown): OrderCapture | undefined {
  return capturesOf(order).find((capture) => paidCaptureStatuses.includes(capture.status));
}

/** The kept account's id, present once PayPal has vaulted it on a successful payment. */
export function vaultIdOf(order: unknown): string | null {
  const vault = at(order, "payment_source", "paypal", "attributes", "vault");
  const id = textAt(vault, "id");
  const status = textAt(vault, "status");
  return id && (status === undefined || status === "VAULTED") ? id : null;
}

/**
 * The page where the buyer approves (orders with a payment source call it payer-action). Also read
 * from a refused capture's answer, whose links send the buyer back to PayPal.
 */
export function approvalLinkOf(order: unknown): string | undefined {
  const links = listAt(order, "links");
  // `redirect`: the page an INSTRUMENT_DECLINED refusal links, where the buyer chooses another funding source.
  for (const rel of ["payer-action", "approve", "redirect"]) {
    const link = links.find((candidate) => textAt(candidate, "rel") === rel);
    const href = textAt(link, "href");
    if (href) return href;
  }
  return undefined;
}

/** A payer appears on the order once the buyer has logged in and approved at PayPal. */
function payerApproved(order: unknown): boolean {
  return asObject(at(order, "payer")) !== undefined || textAt(order, "payment_source", "paypal", "account_id") !== undefined;
}

export function readOrder(order: unknown): OrderReading {
  const id = textAt(order, "id");
  const status = textAt(order, "status");
  if (!id || !status) throw new Error("PayPal answered with an order without id or status");
  switch (status) {
    case "CREATED":
    case "PAYER_ACTION_REQUIRED": {
      const actionUrl = approvalLinkOf(order);
      if (!actionUrl) throw new Error(`PayPal order ${id} waits for the buyer but has no approval link`);
      return { kind: "outcome", outcome: { status: "requires_action", providerRef: id, actionUrl } };
    }
    // SAVED: approved and kept for a later capture ("the order status continues to be in
    // progress until a capture is made", https://developer.paypal.com/docs/api/orders/v2/#orders_get):
    // ours to capture, as an approved one.
    case "APPROVED":
    case "SAVED":
      return { kind: "approved", orderId: id };
    case "COMPLETED":
      return { kind: "outcome", outcome: completedOutcome(id, order) };
    case "VOIDED":
      return { kind: "outcome", outcome: { status: "declined", providerRef: id, code: payerApproved(order) ? "card_declined" : "cancelled" } };
    default:
      throw new Error(`PayPal order ${id} has status ${status}, which a CAPTURE order should not have`);
  }
}

function completedOutcome(id: string, order: unknown): PaymentOutcome {
  const captures = capturesOf(order);
  const capture = captures.find((candidate) => paidCaptureStatuses.includes(candidate.status)) ?? captures.at(-1);
  if (!capture) throw new Error(`PayPal order ${id} is completed without a capture`);
  if (paidCaptureStatuses.includes(capture.status)) return { status: "succeeded", providerRef: id, reusableMethodRef: vaultIdOf(order) };
  if (capture.status === "PENDING") return { status: "processing", providerRef: id };
  return { status: "declined", providerRef: id, code: "card_declined" };
}
