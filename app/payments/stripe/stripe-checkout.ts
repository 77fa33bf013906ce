import { lazy } from "react";
import type { CheckoutPart } from "../checkout-part";
import type { StripeConfig } from "./stripe-js";

/**
 * Stripe's part of the checkout: its Payment Element (the form's `stripe` method) makes a
 * ConfirmationToken in the browser just before sending, in the hidden `stripeToken` field. The
 * methods approved on their own page (Klarna, Swish, ...) are offered beside it and need no field of ours.
 */
export const stripeCheckout: CheckoutPart = {
  provider: "stripe",
  methods: ["stripe"],
  fields: ["stripeToken"],
  problems: (values) => (values.method === "stripe" && !/^(ctoken|pm)_\w+$/.test(values.stripeToken ?? "") ? ["method"] : []),
  page: {
    preparedFields: { stripeToken: "ctoken_pending" },
    // Loaded only when Stripe takes the payment and the buyer has chosen it.
    Component: lazy(() => import("./stripe-payment-element")),
    placeholder: "stripe-element",
  },
  // The Payment Element is introduced as the card method it mostly is.
  namedAs: { stripe: "card" },
  server: import.meta.env.SSR
    ? {
        // The Payment Element shows the market's methods that can be saved; the others are offered on their own.
        offeredMethods: ({ methods, content }) => ["stripe", ...methods.filter((id) => content[id]?.provider === "stripe" && !content[id].reusable)],
        // The Payment Element is set up for off-session use, so it only offers methods that can be saved.
        savesMethods: true,
        singleUseFields: ["stripeToken"],
        details: (values) => ({ paymentMethod: values.stripeToken ?? "" }),
        pageSettings: stripePageSettings,
      }
    : undefined,
};

/** What a page may know of Stripe's settings: the publishable key and where Stripe.js comes from, never a secret. */
function stripePageSettings(settings: unknown): StripeConfig | null {
  if (!settings) return null;
  const { publishableKey, jsUrl } = settings as StripeConfig;
  return { publishableKey, jsUrl };
}
