import type { PageOrigins } from "../../server/csp";
import { store } from "../platform/store.server";

/**
 * The origins Stripe's Payment Element needs (https://docs.stripe.com/security/guide#content-security-policy),
 * opened on the checkout page alone and only when Stripe takes payments. Stripe.js's own origin
 * comes from the settings, so a stand-in served elsewhere (the tests' fake) is allowed instead.
 */
export function stripePageOrigins(): PageOrigins {
  const stripe = store().settings.stripe;
  if (!stripe) return {};
  const js = new URL(stripe.jsUrl).origin;
  const official = js === "https://js.stripe.com";
  return {
    script: official ? [js, "https://*.js.stripe.com"] : [js],
    frame: official ? [js, "https://*.js.stripe.com", "https://hooks.stripe.com"] : [js],
    connect: official ? ["https://api.stripe.com"] : [js],
  };
}
