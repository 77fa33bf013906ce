import { paypal } from "../payments/paypal/paypal.server";
import type { ProviderDescription } from "../payments/provider-description";
import { stripe } from "../payments/stripe/stripe.server";

/**
 * The payment providers the store can take money through, one line each; each is on when its
 * settings are (the test gateway, which takes none, is on in test mode alone). Adding one:
 * docs/architecture.md, "Adding a payment provider".
 */
export const paymentProviders: readonly ProviderDescription[] = [stripe, paypal];
