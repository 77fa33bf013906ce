import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPayPalProvider, type PayPalProvider } from "../../../app/payments/paypal/paypal-provider.server";
import { startFakePayPal, type FakeEventType, type FakePayPal, type RecordedExchange } from "./fake-paypal-api";
import { conformanceProblems } from "./openapi-validator";
import { payPalCheckoutInput } from "./payment-inputs";

/**
 * The provider and the fake against PayPal's own OpenAPI documents. The provider's unit tests
 * check every exchange of theirs the same way; here one buyer's whole life with PayPal runs
 * through every operation the store uses, and the validator is shown to catch what the
 * documents refuse.
 */

let fake: FakePayPal;
beforeEach(async () => {
  fake = await startFakePayPal({ webhooks: [{ url: "https://shop.example/webhooks/paypal", event_types: [{ name: "PAYMENT.CAPTURE.COMPLETED" }] }] });
});
afterEach(async () => {
  await fake.close();
});

const paypal = (): PayPalProvider =>
  createPayPalProvider({ clientId: fake.clientId, clientSecret: fake.clientSecret, webhookId: fake.webhookId, apiUrl: fake.url, publicUrl: "https://shop.example" });

const checkout = (saveMethod = true) => payPalCheckoutInput({ saveMethod });

const signed = () =>
  new Headers({
    "paypal-auth-algo": "SHA256withRSA",
    "paypal-cert-url": "https://api.paypal.com/v1/notifications/certs/CERT-fake",
    "paypal-transmission-id": randomUUID(),
    "paypal-transmission-sig": "c2lnbmF0dXJl",
    "paypal-transmission-time": new Date().toISOString(),
  });

/** The buyer pays, is asked back to PayPal once, takes upsells (one on a revoked account), refunds follow, and webhooks arrive. */
async function buyersLife(provider: PayPalProvider): Promise<void> {
  const first = await provider.startPayment(checkout());
  if (!first.providerRef) throw new Error("no order");
  fake.approve(first.providerRef, "PAYER_ACTION_REQUIRED");
  await provider.retrievePayment(first.providerRef);
  fake.approve(first.providerRef);
  const paid = await provider.retrievePayment(first.providerRef);
  if (paid.status !== "succeeded" || !paid.reusableMethodRef) throw new Error(`expected a kept account, got ${paid.status}`);
  const upsell = { orderNumber: "VN-ABCD-EFGH", amountMinor: 1990, currency: "EUR", reusableMethodRef: paid.reusableMethodRef, returnUrl: "/paypal-confirm/thankyou?payment=p2" };
  await provider.chargeSavedMethod({ ...upsell, idempotencyKey: `order:${randomUUID()}:upsell:upsell:1` });
  fake.revokeVault(paid.reusableMethodRef);
  await provider.chargeSavedMethod({ ...upsell, idempotencyKey: `order:${randomUUID()}:upsell:upsell-2:1` });
  await provider.chargeSavedMethod({ ...upsell, reusableMethodRef: "neverkept", idempotencyKey: `order:${randomUUID()}:upsell:upsell-3:1` });
  await provider.refund({ idempotencyKey: `refund:${randomUUID()}`, providerRef: first.providerRef, amountMinor: 1000 });
  await provider.refund({ idempotencyKey: `refund:${randomUUID()}`, providerRef: first.providerRef, amountMinor: 999_999 });

  const pending = await provider.startPayment(checkout(false));
  const saved = await provider.startPayment(checkout(false));
  const reversed = await provider.startPayment(checkout(false));
  if (!pending.providerRef || !saved.providerRef || !reversed.providerRef) throw new Error("no order");
  fake.approve(pending.providerRef, "PENDING");
  await provider.retrievePayment(pending.providerRef);
  fake.setOrderStatus(saved.providerRef, "SAVED");
  await provider.retrievePayment(saved.providerRef);
  fake.approve(reversed.providerRef);
  const events: [FakeEventType, string][] = [
    ["PAYMENT.CAPTURE.PENDING", pending.providerRef],
    ["PAYMENT.CAPTURE.COMPLETED", pending.providerRef],
    ["PAYMENT.CAPTURE.REVERSED", first.providerRef],
    ["CHECKOUT.PAYMENT-APPROVAL.REVERSED", reversed.providerRef],
  ];
  for (const [eventType, orderId] of events) await provider.verifyWebhook(signed(), fake.webhookEvent(eventType, orderId));
  await provider.retrievePayment(reversed.providerRef);
}

describe("PayPal's OpenAPI documents", () => {
  it("every request of a buyer's whole life and every answer of the fake conform", async () => {
    await buyersLife(paypal());
    // The go-live check's call: the webhooks registered on the account.
    const token = await fetch(`${fake.url}/v1/oauth2/token`, {
      method: "POST",
      headers: { Authorization: `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString("base64")}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    await fetch(`${fake.url}/v1/notifications/webhooks`, { headers: { Authorization: `Bearer ${accessToken}` } });

    const operations = new Set(fake.exchanges.map(({ request, status }) => `${request.method} ${request.path.replace(/\/[A-Z0-9]{17}(?=\/|$)/g, "/{id}")} ${status}`));
    expect([...operations].sort()).toEqual(
      expect.arrayContaining([
        "POST /v2/checkout/orders 201",
        "POST /v2/checkout/orders 400",
        "POST /v2/checkout/orders 422",
        "GET /v2/checkout/orders/{id} 200",
        "POST /v2/checkout/orders/{id}/capture 201",
        "POST /v2/checkout/orders/{id}/capture 422",
        "GET /v2/payments/captures/{id} 200",
        "POST /v2/payments/captures/{id}/refund 201",
        "POST /v2/payments/captures/{id}/refund 422",
        "POST /v1/notifications/verify-webhook-signature 200",
        "GET /v1/notifications/webhooks 200",
      ]),
    );
    expect(await conformanceProblems(fake.exchanges)).toEqual([]);
    // Compiling the documents' schemas takes a few seconds on a small machine.
  }, 60_000);

  const order = { intent: "CAPTURE", purchase_units: [{ amount: { currency_code: "EUR", value: "10.00" } }] };
  const exchange = (changes: { headers?: Record<string, string>; body?: unknown; path?: string; status?: number; answer?: unknown }): RecordedExchange => ({
    request: {
      method: "POST",
      path: changes.path ?? "/v2/checkout/orders",
      query: {},
      headers: { "content-type": "application/json", "paypal-request-id": "order:1:checkout:1", ...changes.headers },
      rawBody: JSON.stringify(changes.body ?? order),
      body: changes.body ?? order,
    },
    status: changes.status ?? 201,
    body: changes.answer ?? { id: "5O190127TN364715T", status: "CREATED", links: [] },
  });

  it.each<[string, RecordedExchange, RegExp]>([
    ["a PayPal-Request-Id of 109 characters", exchange({ headers: { "paypal-request-id": "x".repeat(109) } }), /paypal-request-id.*(fewer|more) than 108/i],
    ["an intent the document does not know", exchange({ body: { ...order, intent: "SALE" } }), /intent.*allowed values/],
    ["an amount as a number", exchange({ body: { ...order, purchase_units: [{ amount: { currency_code: "EUR", value: 10 } }] } }), /value.*must be string/],
    ["an order status the document does not know", exchange({ answer: { id: "5O190127TN364715T", status: "PAID" } }), /status.*allowed values/],
    ["an error answer in none of the documented shapes", exchange({ status: 404, answer: { error: "not found" } }), /response/],
    ["a path no document has", exchange({ path: "/v2/checkout/order" }), /no operation/],
  ])("flags %s", async (_, bad, problem) => {
    const problems = await conformanceProblems([bad]);
    expect(problems.map((found) => found.problem).join("\n")).toMatch(problem);
  });

  it("the fake refuses a PayPal-Request-Id longer than the documents allow, and the validator says why", async () => {
    const provider = paypal();
    await provider.startPayment(checkout());
    const [sent] = fake.exchanges.filter((recorded) => recorded.request.path === "/v2/checkout/orders");
    if (!sent) throw new Error("no order request");
    const tooLong = { ...sent.request, headers: { ...sent.request.headers, "paypal-request-id": "y".repeat(109) } };
    const answer = await fetch(`${fake.url}/v2/checkout/orders`, { method: "POST", headers: tooLong.headers, body: tooLong.rawBody });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ name: "INVALID_REQUEST", details: [{ field: "PayPal-Request-Id", issue: "INVALID_STRING_LENGTH", location: "header" }] });
    expect(await conformanceProblems([{ request: tooLong, status: 400, body: {} }])).not.toEqual([]);
  });
});
