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

/**
 * The payment marks a market shows: its methods whose provider is configured, in the market's
 * order. The test gateway takes cards (its simulated bank has no brand to show).
 */
export function paymentMarksFor(country: string, setup: PaymentSetup): MethodId[] {
  const offered = (methodsFile.markets as Record<string, readonly MethodId[]>)[country] ?? [];
  return offered.filter((id) => {
    const provider = methodsFile.methods[id].provider;
    if (provider === "paypal") return setup.paypal;
    return setup.stripe || (id === "card" && setup.testGateway);
  });
}
