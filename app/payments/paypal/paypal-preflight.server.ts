import { failed, missingEvents, passed, type PreflightCheck } from "../preflight-check";
import { listAt, textAt } from "./json-fields";
import { createPayPalApi, PayPalApiError } from "./paypal-api.server";
import { payPalApiUrls } from "./paypal-provider.server";
import { payPalWebhookEventTypes } from "./paypal-webhooks.server";

/**
 * PayPal's part of the go-live check: the REST app's credentials against the live API, and the
 * webhook PAYPAL_WEBHOOK_ID names registered for our address with the events we handle
 * (`GET /v1/notifications/webhooks`). Reads only.
 */

export interface PayPalPreflightInput {
  clientId: string;
  clientSecret: string;
  webhookId: string;
  apiUrl: string;
  publicUrl: string;
  storeMode: "test" | "live";
}

export async function payPalPreflight(input: PayPalPreflightInput): Promise<PreflightCheck[]> {
  const api = createPayPalApi({ clientId: input.clientId, clientSecret: input.clientSecret, apiUrl: input.apiUrl, now: Date.now, timeoutMs: 10_000 });
  const checks: PreflightCheck[] = [];
  if (input.storeMode === "live" && input.apiUrl === payPalApiUrls.sandbox) {
    checks.push(failed("PayPal API", "PAYPAL_API_URL is PayPal's sandbox, which takes no real money", "Leave PAYPAL_API_URL unset in live mode, and use the live app's credentials."));
  }
  let webhooks: readonly unknown[];
  try {
    const answer = await api.call("GET", "/v1/notifications/webhooks");
    if (answer.status !== 200) throw new PayPalApiError("GET /v1/notifications/webhooks", answer.status, answer.body);
    webhooks = listAt(answer.body, "webhooks");
  } catch (error) {
    const refused = error instanceof PayPalApiError && (error.status === 401 || error.status === 403);
    return [
      ...checks,
      failed(
        "PayPal credentials",
        refused ? "PayPal refused the client id and secret" : "PayPal could not be asked for the app's webhooks",
        "Copy PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET from the live REST app (developer.paypal.com → Apps & Credentials → Live).",
      ),
    ];
  }
  checks.push(passed("PayPal credentials", "the REST app's credentials are accepted"));

  const url = `${input.publicUrl}/webhooks/paypal`;
  const fix = `In the REST app, add a webhook for ${url} with the events ${payPalWebhookEventTypes.join(", ")}, and set PAYPAL_WEBHOOK_ID to its id.`;
  const webhook = webhooks.find((candidate) => textAt(candidate, "id") === input.webhookId);
  if (!webhook) return [...checks, failed("PayPal webhook", `no webhook with the id in PAYPAL_WEBHOOK_ID`, fix)];
  if (textAt(webhook, "url") !== url) return [...checks, failed("PayPal webhook", `PAYPAL_WEBHOOK_ID's webhook posts to ${textAt(webhook, "url") ?? "no address"}, not ${url}`, fix)];
  const subscribed = listAt(webhook, "event_types").map((type) => textAt(type, "name") ?? "");
  const missing = missingEvents(subscribed, payPalWebhookEventTypes);
  if (missing.length > 0) return [...checks, failed("PayPal webhook", `the webhook for ${url} does not send ${missing.join(", ")}`, fix)];
  return [...checks, passed("PayPal webhook", `${url} receives every event the store handles`)];
}
