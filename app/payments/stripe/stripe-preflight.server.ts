import Stripe from "stripe";
import { failed, missingEvents, passed, warned, type PreflightCheck } from "../preflight-check";
import { apiHostSettings } from "./stripe-provider.server";
import { stripeWebhookEventTypes } from "./stripe-webhooks.server";

/**
 * Stripe's part of the go-live check: the keys, the webhook endpoint registered for our address
 * with the events we handle, and the methods each market offers switched on for the account.
 * Reads only; nothing is bought or changed.
 */

export interface StripePreflightInput {
  secretKey: string;
  publishableKey: string;
  /** Another API origin (the tests' fake); default Stripe's own. */
  apiUrl: string | null;
  publicUrl: string;
  storeMode: "test" | "live";
  /** The Stripe methods (`card`, `klarna`, ...) each market offers at checkout. */
  methodsByMarket: Readonly<Record<string, readonly string[]>>;
}

function keyMode(key: string): "live" | "test" | null {
  return (/^(?:sk|rk|pk)_(live|test)_/.exec(key)?.[1] as "live" | "test" | undefined) ?? null;
}

function keysCheck({ secretKey, publishableKey, storeMode }: StripePreflightInput): PreflightCheck {
  const name = "Stripe keys";
  const secret = keyMode(secretKey);
  const publishable = publishableKey.startsWith("pk_") ? keyMode(publishableKey) : null;
  const fix = "Copy both keys from the same mode of Stripe's dashboard (Developers → API keys).";
  if (!secret || !publishable) return failed(name, "STRIPE_SECRET_KEY or STRIPE_PUBLISHABLE_KEY is not a Stripe key", fix);
  if (secret !== publishable) return failed(name, `the secret key is a ${secret} key and the publishable key a ${publishable} key`, fix);
  if (storeMode === "live" && secret === "test") return failed(name, "test keys take no real money", "Use the live keys (sk_live_…, pk_live_…) with STORE_MODE=live.");
  return passed(name, `${secret} keys of one mode`);
}

/** The same API origin the provider talks to (a local fake in tests), with a short timeout. */
function sdkOptions(apiUrl: string | null): Stripe.StripeConfig {
  return { telemetry: false, maxNetworkRetries: 1, timeout: 10_000, ...(apiUrl ? apiHostSettings(apiUrl) : {}) };
}

/** Stripe's refusal in a line that names no key. */
function refusal(error: unknown): string {
  if (error instanceof Stripe.errors.StripeAuthenticationError) return "Stripe refused the secret key";
  if (error instanceof Stripe.errors.StripePermissionError) return "the key may not read this (a restricted key needs read access to webhook endpoints and payment method configurations)";
  if (error instanceof Stripe.errors.StripeError) return `Stripe answered ${error.statusCode ?? "an error"} (${error.code ?? error.type})`;
  return "Stripe could not be reached";
}

function webhookCheck(endpoints: readonly Stripe.WebhookEndpoint[], publicUrl: string): PreflightCheck {
  const name = "Stripe webhook";
  const url = `${publicUrl}/webhooks/stripe`;
  const fix = `In Stripe's dashboard (Developers → Webhooks) add an endpoint for ${url} with the events ${stripeWebhookEventTypes.join(", ")}, and set STRIPE_WEBHOOK_SECRET to its signing secret.`;
  const endpoint = endpoints.find((candidate) => candidate.url === url && candidate.status === "enabled");
  if (!endpoint) return failed(name, `no enabled endpoint for ${url}`, fix);
  const missing = missingEvents(endpoint.enabled_events, stripeWebhookEventTypes);
  if (missing.length > 0) return failed(name, `the endpoint for ${url} does not send ${missing.join(", ")}`, fix);
  return passed(name, `${url} receives every event the store handles`);
}

/**
 * The store reads events with the types of the SDK it pins, written for one API version; an endpoint
 * that renders its events in another version may send objects of another shape (a field renamed or
 * gone), and the event is then misread or ignored. The version is chosen when the endpoint is made
 * (`api_version` of POST /v1/webhook_endpoints; in the dashboard, "Events version").
 */
function webhookVersionCheck(endpoints: readonly Stripe.WebhookEndpoint[], publicUrl: string): PreflightCheck | null {
  const name = "Stripe webhook version";
  const url = `${publicUrl}/webhooks/stripe`;
  const endpoint = endpoints.find((candidate) => candidate.url === url && candidate.status === "enabled");
  if (!endpoint) return null;
  const fix = `Make the endpoint for ${url} anew with the events version ${Stripe.API_VERSION} (Developers → Webhooks), and set STRIPE_WEBHOOK_SECRET to its signing secret.`;
  if (endpoint.api_version === null) return warned(name, "the endpoint sends events of the account's default API version, which may not be the one the store reads", fix);
  if (endpoint.api_version !== Stripe.API_VERSION) return failed(name, `the endpoint sends events of API version ${endpoint.api_version}; the store reads ${Stripe.API_VERSION}`, fix);
  return passed(name, `events of API version ${Stripe.API_VERSION}, the store's`);
}

/**
 * Methods whose payment is kept for later as a SEPA Direct Debit mandate (Stripe's
 * `generated_sepa_debit`): the store's one-click upsells after them are SEPA debits, which the
 * account must take (https://docs.stripe.com/payments/bancontact/set-up-payment).
 */
const methodsSavedAsSepaDebit = ["bancontact", "ideal"];

function sepaDebitCheck(configurations: readonly Stripe.PaymentMethodConfiguration[], methodsByMarket: StripePreflightInput["methodsByMarket"]): PreflightCheck | null {
  const name = "Stripe SEPA Direct Debit";
  const relying = Object.entries(methodsByMarket).flatMap(([market, methods]) => methods.filter((method) => methodsSavedAsSepaDebit.includes(method)).map((method) => [market, method] as const));
  if (relying.length === 0) return null;
  const configuration = configurations.find((candidate) => candidate.is_default && candidate.active);
  if (!configuration) return null;
  const uses = relying.map(([market, method]) => `${market}'s ${method === "ideal" ? "iDEAL" : "Bancontact"}`).join(", ");
  if (configuration.sepa_debit?.available !== true) {
    return failed(name, `not available on the account, and ${uses} payments are charged again by it for upsells`, "Turn SEPA Direct Debit on in Stripe's dashboard (Settings → Payment methods).");
  }
  return passed(name, `available for the upsells after ${uses}`);
}

function methodsCheck(configurations: readonly Stripe.PaymentMethodConfiguration[], methodsByMarket: StripePreflightInput["methodsByMarket"]): PreflightCheck {
  const name = "Stripe payment methods";
  const fix = "Turn the methods on in Stripe's dashboard (Settings → Payment methods), or take them out of content/commerce/payment-methods.json.";
  const configuration = configurations.find((candidate) => candidate.is_default && candidate.active);
  if (!configuration) return failed(name, "the account has no active default payment method configuration", fix);
  const available = (method: string) => (configuration as unknown as Record<string, { available?: boolean } | undefined>)[method]?.available === true;
  const gaps = Object.entries(methodsByMarket)
    .map(([market, methods]) => [market, methods.filter((method) => !available(method))] as const)
    .filter(([, missing]) => missing.length > 0);
  if (gaps.length > 0) return failed(name, `not available on the account: ${gaps.map(([market, missing]) => `${market} ${missing.join(", ")}`).join("; ")}`, fix);
  return passed(name, "every market's methods are available on the account");
}

export async function stripePreflight(input: StripePreflightInput): Promise<PreflightCheck[]> {
  const keys = keysCheck(input);
  if (keys.status === "fail") return [keys];
  const stripe = new Stripe(input.secretKey, sdkOptions(input.apiUrl));
  let endpoints: Stripe.WebhookEndpoint[];
  try {
    endpoints = await stripe.webhookEndpoints.list({ limit: 100 }).autoPagingToArray({ limit: 1000 });
  } catch (error) {
    return [keys, failed("Stripe account", refusal(error), "Check STRIPE_SECRET_KEY (Developers → API keys) and that the server can reach Stripe.")];
  }
  const checks = [keys, webhookCheck(endpoints, input.publicUrl)];
  const version = webhookVersionCheck(endpoints, input.publicUrl);
  if (version) checks.push(version);
  try {
    const configurations = await stripe.paymentMethodConfigurations.list({ limit: 100 }).autoPagingToArray({ limit: 1000 });
    checks.push(methodsCheck(configurations, input.methodsByMarket));
    const sepa = sepaDebitCheck(configurations, input.methodsByMarket);
    if (sepa) checks.push(sepa);
  } catch (error) {
    checks.push(failed("Stripe payment methods", refusal(error), "Give the key read access to payment method configurations."));
  }
  return checks;
}
