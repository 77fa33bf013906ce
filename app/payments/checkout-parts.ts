import type { CheckoutPart } from "./checkout-part";
import { stripeCheckout } from "./stripe/stripe-checkout";
import { testGatewayCheckout } from "./test-gateway/test-gateway-checkout";

/**
 * Every provider's part of the checkout form, one line each. Its own list beside the composition's
 * because the form's rules also run in the browser, where the providers' server modules cannot go;
 * a provider whose payments need no field of ours (PayPal's pages are its own) has none.
 */
export const checkoutParts: readonly CheckoutPart[] = [testGatewayCheckout, stripeCheckout];

/** The part that reads the fields of a checkout method, if it has any. */
export function checkoutPartOf(method: string): CheckoutPart | undefined {
  return checkoutParts.find((part) => part.methods.includes(method));
}

/** Every part's fields, after the checkout's own. */
export const providerFields: readonly string[] = checkoutParts.flatMap((part) => part.fields);

/** The fields sent once, never shown back. */
export const singleUseFields: readonly string[] = checkoutParts.flatMap((part) => part.singleUseFields);
