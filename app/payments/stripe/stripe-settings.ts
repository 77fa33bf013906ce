import { z } from "zod";
import { urlVariable } from "../../platform/settings-variable";
import { requireProviderOrigin, type ProviderSettingsFragment } from "../provider-settings";
import { stripeOrigins } from "./stripe-provider.server";

/** Stripe's keys (all three settings, or none), and where its API and Stripe.js are. */
export interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Another API origin (the tests' fake); null for Stripe's own. */
  apiUrl: string | null;
  jsUrl: string;
}

export const stripeSettings: ProviderSettingsFragment<StripeSettings> = {
  variables: {
    STRIPE_SECRET_KEY: z.string().optional(),
    STRIPE_PUBLISHABLE_KEY: z.string().optional(),
    STRIPE_WEBHOOK_SECRET: z.string().optional(),
    STRIPE_API_URL: urlVariable("STRIPE_API_URL", ["http", "https"]),
    STRIPE_JS_URL: urlVariable("STRIPE_JS_URL", ["http", "https"]),
  },
  credentials: ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"],
  read(values, context) {
    const apiUrl = values.STRIPE_API_URL as string | null;
    const jsUrl = values.STRIPE_JS_URL as string | null;
    requireProviderOrigin("STRIPE_API_URL", apiUrl, [stripeOrigins.api], context);
    requireProviderOrigin("STRIPE_JS_URL", jsUrl, [stripeOrigins.js], context);
    return {
      secretKey: values.STRIPE_SECRET_KEY as string,
      publishableKey: values.STRIPE_PUBLISHABLE_KEY as string,
      webhookSecret: values.STRIPE_WEBHOOK_SECRET as string,
      apiUrl,
      // Stripe.js must come from Stripe; the tests serve a stand-in from the local fake.
      jsUrl: jsUrl ?? `${stripeOrigins.js}/v3/`,
    };
  },
};

/**
 * The origins Stripe's Payment Element needs (https://docs.stripe.com/security/guide#content-security-policy),
 * on every storefront page while Stripe takes payments: buyers reach the checkout by client-side
 * navigation, which keeps the first page's policy (docs/decisions/0024-stripe-script-allowed-on-every-page.md).
 * Stripe.js's own origin comes from the settings, so a stand-in served elsewhere (the tests' fake) is
 * allowed instead.
 */
export function stripeContentSecurity(settings: StripeSettings): { script: string[]; frame: string[]; connect: string[] } {
  const js = new URL(settings.jsUrl).origin;
  if (js !== stripeOrigins.js) return { script: [js], frame: [js], connect: [js] };
  return {
    script: [js, "https://*.js.stripe.com"],
    frame: [js, "https://*.js.stripe.com", "https://hooks.stripe.com"],
    connect: [stripeOrigins.api],
  };
}
