import type { CheckoutPart, MarketMethods } from "./checkout-part";
import { payPalCheckout } from "./paypal/paypal-checkout";
import { stripeCheckout } from "./stripe/stripe-checkout";
import { testGatewayCheckout } from "./test-gateway/test-gateway-checkout";

/**
 * Every provider's part of the checkout, one line each, in the order the checkout lists their
 * methods. Its own list beside the composition's because the form's rules also run in the browser,
 * where the providers' server modules cannot go.
 */
export const checkoutParts: readonly CheckoutPart[] = [testGatewayCheckout, stripeCheckout, payPalCheckout];

/** The methods the checkout offers in a market: each running provider's, in the parts' order. */
export function offeredCheckoutMethods(market: MarketMethods): string[] {
  return checkoutParts.filter((part) => market.running.has(part.provider)).flatMap((part) => part.server?.offeredMethods(market) ?? []);
}

/** The part that reads the fields of a checkout method, if it has any. */
export function checkoutPartOf(method: string): CheckoutPart | undefined {
  return checkoutParts.find((part) => part.methods.includes(method));
}

/** Every part's fields, after the checkout's own. */
export const providerFields: readonly string[] = checkoutParts.flatMap((part) => part.fields);

/** The fields sent once, never shown back (the server's to know). */
export function singleUseFields(): string[] {
  return checkoutParts.flatMap((part) => part.server?.singleUseFields ?? []);
}

/** The part of the provider `id`, if it has one. */
export function checkoutPartOfProvider(id: string): CheckoutPart | undefined {
  return checkoutParts.find((part) => part.provider === id);
}

/** The hidden fields the parts' components fill just before the form is sent. */
export const preparedFields: readonly string[] = checkoutParts.flatMap((part) => Object.keys(part.page?.preparedFields ?? {}));
