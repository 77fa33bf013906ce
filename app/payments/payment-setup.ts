import methodsFile from "../../content/commerce/payment-methods.json";

/**
 * Which providers take payments in this running store, by id (the test gateway's is `test`): the
 * checkout's methods and the pages' payment marks both follow it, so no page shows a method the
 * checkout cannot take.
 */
export type PaymentSetup = ReadonlySet<string>;

/** The test gateway's id: built in, test mode only, card and a simulated bank. */
export const testGatewayId = "test";

/** What a page assumes until it knows: no marks rather than wrong ones. */
export const unknownPaymentSetup: PaymentSetup = new Set();

/** The setup of a store whose providers have these ids. */
export function paymentSetupOf(providerIds: Iterable<string>): PaymentSetup {
  return new Set(providerIds);
}

type MethodId = keyof typeof methodsFile.methods;
/** A mark on the pages: a market's method, or the test gateway's bank payment (a generic bank mark). */
export type PaymentMarkId = MethodId | "bank";

/**
 * The payment marks a market shows: the methods its checkout offers with the configured
 * providers, in the market's order. Without the cards' provider the test gateway takes cards and
 * bank payments, as the checkout does.
 */
export function paymentMarksFor(country: string, setup: PaymentSetup): PaymentMarkId[] {
  const offered = (methodsFile.markets as Record<string, readonly MethodId[]>)[country] ?? [];
  return offered.flatMap((id): PaymentMarkId[] => {
    if (setup.has(methodsFile.methods[id].provider)) return [id];
    return id === "card" && setup.has(testGatewayId) ? ["card", "bank"] : [];
  });
}

/**
 * What a mark reads as: described in the page's language when `content/commerce/payment-methods.json`
 * gives it a message (`described`), else by its brand (`brands`), else by its id.
 */
export function paymentMarkText(id: PaymentMarkId, translate: (key: string) => string): string {
  const key = (methodsFile.described as Readonly<Record<string, string>>)[id];
  return key ? translate(key) : ((methodsFile.brands as Readonly<Record<string, string>>)[id] ?? id);
}
