import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakePayPal, type FakePayPal } from "../fakes/paypal/fake-paypal-api";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe/fake-stripe-api";
import { startServer, type RunningServer } from "./support/server";

/** PayPal's webhook headers; the fake's verification API decides whether they are genuine. */
function transmission(time = new Date()): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "PayPal-Auth-Algo": "SHA256withRSA",
    "PayPal-Cert-Url": "https://api.paypal.com/v1/notifications/certs/CERT-fake",
    "PayPal-Transmission-Id": randomUUID(),
    "PayPal-Transmission-Sig": "c2lnbmF0dXJl",
    "PayPal-Transmission-Time": time.toISOString(),
  };
}

const event = (type: string) => JSON.stringify({ id: `WH-${randomUUID()}`, event_version: "1.0", event_type: type, resource: { id: "X" } });

describe("provider webhooks", () => {
  let paypal: FakePayPal;
  let stripe: FakeStripe;
  let server: RunningServer;
  beforeAll(async () => {
    paypal = await startFakePayPal({ clientId: "client", clientSecret: "secret", webhookId: "WH-STORE" });
    stripe = await startFakeStripe({ secretKey: "sk_test_store", webhookSecret: "whsec_store" });
    server = await startServer({
      PAYPAL_CLIENT_ID: "client",
      PAYPAL_CLIENT_SECRET: "secret",
      PAYPAL_WEBHOOK_ID: "WH-STORE",
      PAYPAL_API_URL: paypal.url,
      STRIPE_SECRET_KEY: "sk_test_store",
      STRIPE_PUBLISHABLE_KEY: "pk_test_store",
      STRIPE_WEBHOOK_SECRET: "whsec_store",
      STRIPE_API_URL: stripe.url,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await paypal?.close();
    await stripe?.close();
  });

  const post = (path: string, body: string, headers: Record<string, string>) => fetch(`${server.url}${path}`, { method: "POST", body, headers });

  it("takes a verified PayPal event, and acknowledges one it does not act on", async () => {
    paypal.setVerificationStatus("SUCCESS");
    expect((await post("/webhooks/paypal", event("CATALOG.PRODUCT.CREATED"), transmission())).status).toBe(200);
    const verifications = paypal.requestsTo("POST", "/v1/notifications/verify-webhook-signature");
    expect(verifications.at(-1)?.body).toMatchObject({ webhook_id: "WH-STORE", auth_algo: "SHA256withRSA" });
  });

  it.each([
    ["a signature PayPal does not confirm", "FAILURE" as const, transmission()],
    ["a stale transmission", "SUCCESS" as const, transmission(new Date(Date.now() - 10 * 60 * 1000))],
    ["no signature headers", "SUCCESS" as const, { "Content-Type": "application/json" }],
  ])("refuses %s with 400", async (_, verdict, headers) => {
    paypal.setVerificationStatus(verdict);
    expect((await post("/webhooks/paypal", event("PAYMENT.CAPTURE.COMPLETED"), headers)).status).toBe(400);
  });

  it("takes a Stripe event signed with the webhook secret, and refuses a forged or stale one", async () => {
    const body = stripe.event("customer.created", { id: "cus_1", object: "customer" });
    const json = { "Content-Type": "application/json" };
    expect((await post("/webhooks/stripe", body, { ...json, "Stripe-Signature": stripe.signature(body) })).status).toBe(200);
    expect((await post("/webhooks/stripe", body, { ...json, "Stripe-Signature": stripe.signature(body, { secret: "whsec_other" }) })).status).toBe(400);
    const stale = stripe.signature(body, { timestampSeconds: Math.floor(Date.now() / 1000) - 301 });
    expect((await post("/webhooks/stripe", body, { ...json, "Stripe-Signature": stale })).status).toBe(400);
  });

  it("answers 404 for a provider that is not configured and 405 to anything but POST", async () => {
    expect((await post("/webhooks/adyen", "{}", { "Content-Type": "application/json" })).status).toBe(404);
    expect((await fetch(`${server.url}/webhooks/paypal`)).status).toBe(405);
  });

  it("keeps provider secrets out of the server's output", () => {
    for (const secret of ["secret", "sk_test_store", "whsec_store"]) expect(server.output()).not.toContain(secret);
  });
});
