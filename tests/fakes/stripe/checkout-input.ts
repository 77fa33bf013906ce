import type { StartPaymentInput } from "../../../app/payments/provider";
import { fakeTestPaymentMethods } from "./fake-stripe-api";

/** TEST SUPPORT ONLY: a card checkout of 89.70 EUR with a method the fake pays, keeping it for upsells. */
export function checkoutInput(returnUrl: string, overrides: Partial<StartPaymentInput> = {}): StartPaymentInput {
  return {
    idempotencyKey: `order:${crypto.randomUUID()}:checkout:1`,
    customer: { email: "anna.muster@example.com", name: "Anna Muster" },
    orderNumber: "VN-ABCD-EFGH",
    amountMinor: 8970,
    currency: "EUR",
    method: "card",
    details: { paymentMethod: fakeTestPaymentMethods.succeeds },
    saveMethod: true,
    returnUrl,
    ...overrides,
  };
}
