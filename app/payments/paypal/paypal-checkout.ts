import type { CheckoutPart } from "../checkout-part";

/** PayPal's part of the checkout: its method where the market offers it, and no field of ours (its pages are its own). */
export const payPalCheckout: CheckoutPart = {
  provider: "paypal",
  methods: ["paypal"],
  fields: [],
  problems: () => [],
  server: import.meta.env.SSR ? { offeredMethods: ({ methods, content }) => methods.filter((id) => content[id]?.provider === "paypal"), singleUseFields: [], details: () => ({}) } : undefined,
};
