import type { ProviderDescription } from "../provider-description";
import { stripePreflight } from "./stripe-preflight.server";
import { createStripeProvider } from "./stripe-provider.server";
import { stripeContentSecurity, stripeSettings, type StripeSettings } from "./stripe-settings";

/** Stripe as the store knows it (docs/decisions/0037-providers-describe-themselves.md). */
export const stripe: ProviderDescription<StripeSettings> = {
  id: "stripe",
  name: "Stripe",
  settings: stripeSettings,
  create: ({ secretKey, webhookSecret, apiUrl }, { publicUrl }) => createStripeProvider({ secretKey, webhookSecret, publicUrl, ...(apiUrl ? { apiUrl } : {}) }),
  contentSecurity: stripeContentSecurity,
  preflight: ({ secretKey, publishableKey, apiUrl }, context) => stripePreflight({ secretKey, publishableKey, apiUrl, ...context }),
  confirmingCheck: "Stripe payment methods",
};
