import { randomUUID } from "node:crypto";
import type { StartPaymentInput } from "../../../app/payments/provider";

/** TEST SUPPORT ONLY: a buyer's PayPal checkout as the store starts it, with a fresh idempotency key. */
export function payPalCheckoutInput(overrides: Partial<StartPaymentInput> = {}): StartPaymentInput {
  return {
    idempotencyKey: `order:${randomUUID()}:checkout:1`,
    customer: { email: "anna.muster@example.com", name: "Anna Muster" },
    orderNumber: "VN-ABCD-EFGH",
    amountMinor: 8970,
    currency: "EUR",
    method: "paypal",
    details: {},
    saveMethod: true,
    returnUrl: "/paypal-confirm/upsell?payment=p1",
    ...overrides,
  };
}
