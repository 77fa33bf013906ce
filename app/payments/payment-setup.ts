import methodsFile from "../../content/commerce/payment-methods.json";

/**
 * Which providers take payments in this running store: the checkout's methods and the pages'
 * payment marks both follow it, so no page shows a method the checkout cannot take.
 */
export interface PaymentSetup {
  /** The built-in test gateway (test mode only): card and a simulated bank. */
  testGateway: boolean;
  stripe: boolean;
  paypal: boolean;
}

/** What a page assumes until it knows: no marks rather than wrong ones. */
export const unknownPaymentSetup: PaymentSetup = { testGateway: false, stripe: false, paypal: false };

/** The setup of a store whose providers have these ids (`test`, `stripe`, `paypal`). */
export function paymentSetupOf(providerIds: Iterable<string>): PaymentSetup {
  const ids = new Set(providerIds);
  return { testGateway: ids.has("test"), stripe: ids.has("stripe"), paypal: ids.has("paypal") };
}

type MethodId = keyof typeof methodsFile.methods;
/** A mark on the pages: a market's method, or the test gateway's bank payment (a generic bank mark). */
export type PaymentMarkId = MethodId | "bank";

/**
 * The payment marks a market shows: the methods its checkout offers with the configured
 * providers, in the market's order. Without Stripe the test gateway takes cards and bank payments,
 * as the checkout does.
 */
export function paymentMarksFor(country: string, setup: PaymentSetup): PaymentMarkId[] {
  const offered = (methodsFile.markets as Record<string, readonly MethodId[]>)[country] ?? [];
  return offered.flatMap((id): PaymentMarkId[] => {
    if (methodsFile.methods[id].provider === "paypal") return setup.paypal ? [id] : [];
    if (setup.stripe) return [id];
    return id === "card" && setup.testGateway ? ["card", "bank"] : [];
  });
}
