import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStripeProvider, type StripeProvider } from "../../../app/payments/stripe/stripe-provider.server";
import type { StartPaymentInput } from "../../../app/payments/provider";
import { checkoutInput } from "./checkout-input";
import { fakeTestPaymentMethods, startFakeStripe, type FakeStripe } from "./fake-stripe-api";
import { checkSubsetIsOpenApi, loadStripeSchema, loadSubset, requestProblems, responseProblems } from "./stripe-openapi";

/**
 * Every request the real provider (through the official `stripe` SDK) sends in the buyer's paths,
 * and every answer the fake gives, against Stripe's own OpenAPI document (openapi-subset.json).
 */

let fake: FakeStripe;
let provider: StripeProvider;

beforeAll(async () => {
  await loadStripeSchema();
  fake = await startFakeStripe({
    webhookEndpoints: [{ url: "https://shop.example/webhooks/stripe", enabled_events: ["payment_intent.succeeded", "charge.refunded"] }],
    paymentMethodConfigurations: [{ enabled: ["card", "swish"] }],
  });
  provider = createStripeProvider({ secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, apiUrl: fake.url, publicUrl: "https://shop.example" });
}, 60_000);
afterAll(async () => {
  await fake.close();
});

function checkout(overrides: Partial<StartPaymentInput> = {}): StartPaymentInput {
  return checkoutInput("/checkout-return/1", { customer: { email: "anna.muster@example.com", name: "Anna Muster", country: "SE" }, ...overrides });
}

async function get(path: string): Promise<void> {
  await fetch(`${fake.url}${path}`, { headers: { Authorization: `Bearer ${fake.secretKey}` } });
}

describe("Stripe's OpenAPI subset", () => {
  it("is a valid OpenAPI document that names where it comes from", () => {
    const info = loadSubset().info as unknown as { "x-source": Record<string, unknown> };
    expect(loadSubset().openapi).toBe("3.0.0");
    expect(() => checkSubsetIsOpenApi()).not.toThrow();
    expect(info["x-source"]).toMatchObject({
      repository: "stripe/openapi",
      path: expect.stringMatching(/^openapi\/spec3\.(json|yaml)$/),
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
      apiVersion: expect.any(String),
      gitBlobSha1: expect.stringMatching(/^[0-9a-f]{40}$/),
      supplementFrom: expect.objectContaining({ apiVersion: expect.any(String) }),
      supplements: expect.any(Array),
    });
  });

  it("names the pieces its base document lacks, and not those it has", () => {
    const source = (loadSubset().info as unknown as { "x-source": { supplements: string[] } })["x-source"];
    // ConfirmationTokens and payment method configurations came after the base's API version
    // (2023-08-16); an amount did not.
    expect(source.supplements).toEqual(expect.arrayContaining(["POST /v1/payment_intents: confirmation_token", "POST /v1/payment_intents/{intent}/confirm: confirmation_token", "GET /v1/payment_method_configurations"]));
    expect(source.supplements).not.toContain("POST /v1/payment_intents: amount");
  });

  it("holds every request the provider sends and every answer of the fake in the buyer's paths", async () => {
    // Card with a kept method, an upsell, an upsell needing authentication, 3-D Secure, Swish,
    // a decline, a ConfirmationToken and its reuse, a refund pending then failed, the go-live lists.
    const paid = await provider.startPayment(checkout());
    if (paid.status !== "succeeded" || !paid.reusableMethodRef) throw new Error("expected a kept method");
    await provider.chargeSavedMethod({ idempotencyKey: randomUUID(), orderNumber: "VN-1", amountMinor: 1990, currency: "EUR", reusableMethodRef: paid.reusableMethodRef, returnUrl: "/upsell/1" });
    const secure = await provider.startPayment(checkout({ details: { paymentMethod: fakeTestPaymentMethods.authenticationRequired } }));
    fake.authenticate(secure.providerRef ?? "", true);
    const kept = await provider.retrievePayment(secure.providerRef ?? "");
    if (kept.status === "succeeded" && kept.reusableMethodRef) {
      await provider.chargeSavedMethod({ idempotencyKey: randomUUID(), orderNumber: "VN-1", amountMinor: 1990, currency: "EUR", reusableMethodRef: kept.reusableMethodRef, returnUrl: "/upsell/1" });
    }
    await provider.startPayment(checkout({ method: "swish", currency: "SEK", amountMinor: 30000, details: {}, saveMethod: false }));
    await provider.startPayment(checkout({ details: { paymentMethod: fakeTestPaymentMethods.declined } }));
    const token = fake.confirmationToken(fakeTestPaymentMethods.succeeds);
    await provider.startPayment(checkout({ details: { paymentMethod: token } }));
    await provider.startPayment(checkout({ details: { paymentMethod: token } }));
    fake.holdNextRefund();
    const refund = await provider.refund({ idempotencyKey: randomUUID(), providerRef: paid.providerRef, amountMinor: 1000 });
    if (refund.status === "pending") {
      fake.settleRefund(refund.refundRef, "failed");
      await get(`/v1/refunds/${refund.refundRef}`);
    }
    await get("/v1/webhook_endpoints");
    await get("/v1/payment_method_configurations");

    const exchanges = fake.requests.filter((request) => request.path.startsWith("/v1/"));
    expect(exchanges.length).toBeGreaterThan(15);
    const problems = exchanges.flatMap((exchange) => [
      ...requestProblems(exchange.method, exchange.path, exchange.params).map((problem) => `request ${exchange.method} ${exchange.path}: ${problem.message}`),
      ...responseProblems(exchange.method, exchange.path, exchange.status, exchange.responseBody).map((problem) => `answer ${exchange.status} to ${exchange.method} ${exchange.path}: ${problem}`),
    ]);
    expect(problems).toEqual([]);
  }, 120_000);

  it.each([
    ["an invented top-level parameter", "POST", "/v1/payment_intents", { amount: "100", currency: "eur", colour: "red" }, "colour"],
    ["an invented nested parameter", "POST", "/v1/payment_intents", { amount: "100", currency: "eur", payment_method_data: { type: "swish", colour: "red" } }, "payment_method_data[colour]"],
    ["a parameter of an older API version", "POST", "/v1/payment_intents", { amount: "100", currency: "eur", payment_method_types: { 0: "card" } }, "payment_method_types"],
    ["an invented query parameter", "GET", "/v1/payment_intents/pi_1", { colour: "red" }, "colour"],
  ] as const)("flags %s", (_name, method, path, params, param) => {
    expect(requestProblems(method, path, params)).toContainEqual(expect.objectContaining({ code: "parameter_unknown", param }));
  });

  it.each([
    ["an amount that is no integer", { amount: "ten", currency: "eur" }, "amount"],
    ["a setup_future_usage Stripe does not know", { amount: "100", currency: "eur", setup_future_usage: "forever" }, "setup_future_usage"],
  ])("flags %s", (_name, params, param) => {
    expect(requestProblems("POST", "/v1/payment_intents", params)).toContainEqual(expect.objectContaining({ code: "parameter_invalid", param }));
  });

  it("flags an answer missing what Stripe's schema requires", () => {
    expect(responseProblems("POST", "/v1/refunds", 200, { id: "re_1", object: "refund", amount: 100 })).not.toEqual([]);
  });
});
