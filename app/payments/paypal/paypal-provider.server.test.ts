import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebhookRejected, type PaymentEvent, type PaymentOutcome, type StartPaymentInput } from "../provider";
import { conformanceProblems } from "../../../tests/fakes/paypal/openapi-validator";
import { payPalCheckoutInput } from "../../../tests/fakes/paypal/payment-inputs";
import { startFakePayPal, type FakeCaptureOutcome, type FakeEventType, type FakeOrderStatus, type FakePayPal, type FakeVaultedOutcome } from "../../../tests/fakes/paypal/fake-paypal-api";
import { textAt } from "./json-fields";
import { PayPalApiError, PayPalUnreachable, payPalRequestId } from "./paypal-api.server";
import { createPayPalProvider, type PayPalProvider, type PayPalProviderOptions } from "./paypal-provider.server";

const publicUrl = "https://shop.example";
let fake: FakePayPal;
let clock: number;

beforeEach(async () => {
  fake = await startFakePayPal();
  clock = Date.now();
});
afterEach(async () => {
  await fake.close();
  // Every request the provider sent in the test, and every answer the fake gave, as PayPal documents them.
  expect(await conformanceProblems(fake.exchanges)).toEqual([]);
});

function paypal(overrides: Partial<PayPalProviderOptions> = {}): PayPalProvider {
  return createPayPalProvider({ clientId: fake.clientId, clientSecret: fake.clientSecret, webhookId: fake.webhookId, apiUrl: fake.url, publicUrl, now: () => clock, ...overrides });
}

const paymentId = "3f1c2a9e-5b7d-4c21-9a0e-2b8f6d4e1a73";

function checkout(overrides: Partial<StartPaymentInput> = {}): StartPaymentInput {
  return payPalCheckoutInput({ returnUrl: `/checkout-return/${paymentId}`, ...overrides });
}

function refOf(outcome: PaymentOutcome): string {
  if (!outcome.providerRef) throw new Error(`no providerRef in ${JSON.stringify(outcome)}`);
  return outcome.providerRef;
}

/** A checkout the buyer approved and we captured: the order id and the kept account. */
async function paidOrder(provider: PayPalProvider, input: Partial<StartPaymentInput> = {}): Promise<{ orderId: string; vaultId: string | null }> {
  const orderId = refOf(await provider.startPayment(checkout(input)));
  fake.approve(orderId);
  const outcome = await provider.retrievePayment(orderId);
  if (outcome.status !== "succeeded") throw new Error(`expected a paid order, got ${outcome.status}`);
  return { orderId, vaultId: outcome.reusableMethodRef };
}

/** A copy of a JSON object without one field. */
const without = (value: unknown, field: string): Record<string, unknown> => Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([key]) => key !== field));

const lastBody = (method: string, path: string | RegExp): unknown => fake.requestsTo(method, path).at(-1)?.body;
const tokenRequests = () => fake.requestsTo("POST", "/v1/oauth2/token");

describe("OAuth token", () => {
  it("is fetched once with Basic auth and reused by later calls", async () => {
    const provider = paypal();
    const orderId = refOf(await provider.startPayment(checkout()));
    await provider.retrievePayment(orderId);
    await provider.startPayment(checkout());

    expect(tokenRequests()).toHaveLength(1);
    const [request] = tokenRequests();
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString("base64")}`);
    expect(request?.rawBody).toBe("grant_type=client_credentials");
    const bearers = new Set(fake.requests.filter((r) => r.path !== "/v1/oauth2/token").map((r) => r.headers.authorization));
    expect(bearers.size).toBe(1);
    expect([...bearers][0]).toMatch(/^Bearer \S+$/);
  });

  it("is fetched again shortly before it expires, not earlier", async () => {
    await fake.close();
    fake = await startFakePayPal({ tokenLifetimeSeconds: 3600 });
    const provider = paypal();
    const orderId = refOf(await provider.startPayment(checkout()));
    clock += 3299_000;
    await provider.retrievePayment(orderId);
    expect(tokenRequests()).toHaveLength(1);
    clock += 2_000;
    await provider.retrievePayment(orderId);
    expect(tokenRequests()).toHaveLength(2);
  });

  it("is replaced once when PayPal revokes it early, and the call goes through", async () => {
    const provider = paypal();
    const orderId = refOf(await provider.startPayment(checkout()));
    fake.revokeTokens();
    await expect(provider.retrievePayment(orderId)).resolves.toMatchObject({ status: "requires_action" });
    expect(tokenRequests()).toHaveLength(2);
  });

  it("with wrong credentials the call throws, naming neither the secret nor the credentials", async () => {
    const secret = "sEcReT-wrong-0123456789";
    const error = await paypal({ clientSecret: secret })
      .startPayment(checkout())
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PayPalApiError);
    expect((error as PayPalApiError).status).toBe(401);
    const message = (error as Error).message;
    expect(message).toContain("oauth2/token");
    expect(message).not.toContain(secret);
    expect(message).not.toContain(Buffer.from(`${fake.clientId}:${secret}`).toString("base64"));
    expect(fake.requestsTo("POST", "/v2/checkout/orders")).toHaveLength(0);
  });
});

describe("startPayment", () => {
  it.each([true, false])("creates a CAPTURE order in our words (saveMethod %s)", async (saveMethod) => {
    const input = checkout({ saveMethod });
    await paypal().startPayment(input);

    const [request] = fake.requestsTo("POST", "/v2/checkout/orders");
    expect(request?.headers["paypal-request-id"]).toBe(input.idempotencyKey);
    expect(request?.body).toEqual({
      intent: "CAPTURE",
      purchase_units: [{ reference_id: "VN-ABCD-EFGH", custom_id: "VN-ABCD-EFGH", amount: { currency_code: "EUR", value: "89.70" } }],
      payment_source: {
        paypal: {
          experience_context: {
            return_url: `https://shop.example/checkout-return/${paymentId}`,
            cancel_url: `https://shop.example/checkout-return/${paymentId}?cancelled=1`,
            user_action: "PAY_NOW",
            shipping_preference: "NO_SHIPPING",
          },
          ...(saveMethod ? { attributes: { vault: { store_in_vault: "ON_SUCCESS", usage_type: "MERCHANT" } } } : {}),
        },
      },
    });
  });

  it.each<[number, string, string]>([
    [8970, "EUR", "89.70"],
    [5, "GBP", "0.05"],
    [129900, "SEK", "1299.00"],
    [100, "DKK", "1.00"],
    [4990, "CHF", "49.90"],
  ])("sends %i minor units of %s as %j", async (amountMinor, currency, value) => {
    await paypal().startPayment(checkout({ amountMinor, currency }));
    expect(textAt(lastBody("POST", "/v2/checkout/orders"), "purchase_units", 0, "amount", "value")).toBe(value);
    expect(textAt(lastBody("POST", "/v2/checkout/orders"), "purchase_units", 0, "amount", "currency_code")).toBe(currency);
  });

  it("answers requires_action with PayPal's payer-action page and the order id as reference", async () => {
    const outcome = await paypal().startPayment(checkout());
    const orderId = refOf(outcome);
    const link = (fake.order(orderId) as { links: { rel: string; href: string }[] }).links.find((l) => l.rel === "payer-action")?.href;
    expect(link).toMatch(/\/checkoutnow\?token=/);
    expect(outcome).toEqual({ status: "requires_action", providerRef: orderId, actionUrl: link });
  });

  it("sends the shipping address when it has one, so PayPal keeps it", async () => {
    const shipping = { fullName: "Anna Muster", addressLine1: "Hauptstraße 1", city: "Berlin", postalCode: "10115", countryCode: "DE" };
    await paypal().startPayment({ ...checkout(), shipping });
    const body = lastBody("POST", "/v2/checkout/orders");
    expect(textAt(body, "payment_source", "paypal", "experience_context", "shipping_preference")).toBe("SET_PROVIDED_ADDRESS");
    expect(textAt(body, "purchase_units", 0, "shipping", "address", "admin_area_2")).toBe("Berlin");
  });

  it("a repeated request id gets the first order back and PayPal creates nothing new", async () => {
    const provider = paypal();
    const input = checkout();
    const first = await provider.startPayment(input);
    const again = await provider.startPayment(input);
    expect(again).toEqual(first);
    expect(fake.orderCount()).toBe(1);
  });

  it("joins a public URL with a trailing slash without doubling it", async () => {
    await paypal({ publicUrl: "https://shop.example/" }).startPayment(checkout());
    expect(textAt(lastBody("POST", "/v2/checkout/orders"), "payment_source", "paypal", "experience_context", "return_url")).toBe(`https://shop.example/checkout-return/${paymentId}`);
  });

  it("keeps a return path's own query and adds the cancel marker to it", async () => {
    await paypal().startPayment(checkout({ returnUrl: "/paypal-confirm/checkout?payment=p1" }));
    const context = (field: string) => textAt(lastBody("POST", "/v2/checkout/orders"), "payment_source", "paypal", "experience_context", field);
    expect(context("return_url")).toBe("https://shop.example/paypal-confirm/checkout?payment=p1");
    expect(context("cancel_url")).toBe("https://shop.example/paypal-confirm/checkout?payment=p1&cancelled=1");
  });

  it.each(["https://elsewhere.example/x", "//elsewhere.example/x", "/\\elsewhere.example", "checkout-return/x"])("refuses the return path %j before calling PayPal", async (returnUrl) => {
    await expect(paypal().startPayment(checkout({ returnUrl }))).rejects.toThrow(/return path/);
    expect(fake.requestsTo("POST", "/v2/checkout/orders")).toHaveLength(0);
  });

  it("throws on a 500, and the retry with the same request id creates one order", async () => {
    const provider = paypal();
    const input = checkout();
    fake.failNext({ path: "/v2/checkout/orders", afterProcessing: true });
    await expect(provider.startPayment(input)).rejects.toThrow(/answered 500/);
    const outcome = await provider.startPayment(input);
    expect(outcome.status).toBe("requires_action");
    expect(fake.orderCount()).toBe(1);
  });
});

describe("retrievePayment", () => {
  it("captures an approved order once and answers succeeded with the kept account", async () => {
    const provider = paypal();
    const orderId = refOf(await provider.startPayment(checkout()));
    fake.approve(orderId);
    const approvedAt = textAt(fake.order(orderId), "update_time");

    const first = await provider.retrievePayment(orderId);
    const vaultId = textAt(fake.order(orderId), "payment_source", "paypal", "attributes", "vault", "id");
    expect(vaultId).toBeTruthy();
    expect(first).toEqual({ status: "succeeded", providerRef: orderId, reusableMethodRef: vaultId });
    expect(await provider.retrievePayment(orderId)).toEqual(first);

    const captures = fake.requestsTo("POST", `/v2/checkout/orders/${orderId}/capture`);
    expect(captures).toHaveLength(1);
    expect(captures[0]?.headers["paypal-request-id"]).toBe(`${orderId}:capture:${approvedAt}`);
  });

  it("answers no kept account when the buyer did not ask to save it", async () => {
    const { vaultId } = await paidOrder(paypal(), { saveMethod: false });
    expect(vaultId).toBeNull();
  });

  it("answers requires_action with the same page while the buyer has not approved, and captures nothing", async () => {
    const provider = paypal();
    const started = await provider.startPayment(checkout());
    expect(await provider.retrievePayment(refOf(started))).toEqual(started);
    expect(fake.requestsTo("POST", /\/capture$/)).toHaveLength(0);
  });

  it.each<[FakeCaptureOutcome, PaymentOutcome["status"], string | null]>([
    ["PENDING", "processing", null],
    ["DECLINED", "declined", "card_declined"],
  ])("a %s capture answers %s", async (capture, status, code) => {
    const provider = paypal();
    const orderId = refOf(await provider.startPayment(checkout()));
    fake.approve(orderId, capture);
    const outcome = await provider.retrievePayment(orderId);
    expect(outcome).toEqual({ status, providerRef: orderId, ...(code ? { code } : {}) });
  });

  it("sends the buyer back to PayPal to choose another funding source when the capture answers INSTRUMENT_DECLINED, and captures after they chose", async () => {
    const provider = paypal();
    const orderId = refOf(await provider.startPayment(checkout()));
    fake.approve(orderId, "INSTRUMENT_DECLINED");
    expect(await provider.retrievePayment(orderId)).toEqual({ status: "requires_action", providerRef: orderId, actionUrl: `${fake.url}/checkoutnow?token=${orderId}` });
    // The buyer picks another funding source on that page; the next capture is a new request and pays.
    fake.approve(orderId);
    expect(await provider.retrievePayment(orderId)).toMatchObject({ status: "succeeded", providerRef: orderId });
    expect(fake.requestsTo("POST", `/v2/checkout/orders/${orderId}/capture`)).toHaveLength(2);
  });

  it.each<[string, boolean, string]>([
    ["voided before the buyer approved", false, "cancelled"],
    ["voided after the buyer approved", true, "card_declined"],
  ])("an order %s is declined (%s)", async (_, approvedFirst, code) => {
    const provider = paypal();
    const orderId = refOf(await provider.startPayment(checkout()));
    if (approvedFirst) fake.approve(orderId);
    fake.voidOrder(orderId);
    expect(await provider.retrievePayment(orderId)).toEqual({ status: "declined", providerRef: orderId, code });
  });

  it("an order PayPal has forgotten (expired unapproved) is cancelled", async () => {
    const provider = paypal();
    const orderId = refOf(await provider.startPayment(checkout()));
    fake.expireOrder(orderId);
    expect(await provider.retrievePayment(orderId)).toEqual({ status: "declined", providerRef: orderId, code: "cancelled" });
  });

  it("a capture whose answer was lost throws; the next retrieve finds it paid without capturing again", async () => {
    const provider = paypal();
    const orderId = refOf(await provider.startPayment(checkout()));
    fake.approve(orderId);
    fake.failNext({ path: "/capture", afterProcessing: true });
    await expect(provider.retrievePayment(orderId)).rejects.toThrow(/answered 500/);
    expect(await provider.retrievePayment(orderId)).toMatchObject({ status: "succeeded" });
    expect((fake.order(orderId) as { purchase_units: { payments: { captures: unknown[] } }[] }).purchase_units[0]?.payments.captures).toHaveLength(1);
  });

  it("a 500 on reading the order throws", async () => {
    const provider = paypal();
    const orderId = refOf(await provider.startPayment(checkout()));
    fake.failNext({ path: `/v2/checkout/orders/${orderId}` });
    await expect(provider.retrievePayment(orderId)).rejects.toBeInstanceOf(PayPalApiError);
  });

  it("refuses a reference that is not a PayPal id without calling PayPal", async () => {
    await expect(paypal().retrievePayment("../../v1/oauth2/token")).rejects.toThrow(/not a PayPal order id/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("cancelPayment", () => {
  it("never captures an order the buyer approved after the store closed its attempt", async () => {
    const provider = paypal();
    const orderId = refOf(await provider.startPayment(checkout({ attemptRef: paymentId })));
    expect(textAt(lastBody("POST", "/v2/checkout/orders"), "purchase_units", 0, "invoice_id")).toBe(paymentId);
    fake.approve(orderId);
    expect(await provider.cancelPayment(orderId)).toEqual({ status: "declined", providerRef: orderId, code: "cancelled" });
    expect(fake.requestsTo("POST", /\/capture$/)).toHaveLength(0);
  });

  it("answers succeeded for an order that was captured all the same", async () => {
    const provider = paypal();
    const { orderId } = await paidOrder(provider);
    expect(await provider.cancelPayment(orderId)).toMatchObject({ status: "succeeded", providerRef: orderId });
  });
});

describe("chargeSavedMethod", () => {
  const upsell = (reusableMethodRef: string, idempotencyKey = `order:${randomUUID()}:upsell:1`) => ({
    idempotencyKey,
    orderNumber: "VN-ABCD-EFGH",
    amountMinor: 1990,
    currency: "EUR",
    reusableMethodRef,
    returnUrl: `/checkout-return/${paymentId}`,
  });

  it("pays from the kept account without the buyer", async () => {
    const provider = paypal();
    const { orderId, vaultId } = await paidOrder(provider);
    if (!vaultId) throw new Error("no kept account");
    const input = upsell(vaultId);
    const outcome = await provider.chargeSavedMethod(input);

    expect(outcome).toMatchObject({ status: "succeeded", reusableMethodRef: vaultId });
    expect(refOf(outcome)).not.toBe(orderId);
    const [request] = fake.requestsTo("POST", "/v2/checkout/orders").slice(-1);
    expect(request?.headers["paypal-request-id"]).toBe(input.idempotencyKey);
    expect(request?.body).toMatchObject({
      intent: "CAPTURE",
      purchase_units: [{ reference_id: "VN-ABCD-EFGH", amount: { currency_code: "EUR", value: "19.90" } }],
      payment_source: { paypal: { vault_id: vaultId } },
    });
    expect(textAt(request?.body, "payment_source", "paypal", "attributes")).toBeUndefined();
    expect(fake.requestsTo("POST", /\/capture$/)).toHaveLength(1);
  });

  it("a repeated request id answers the same order and charges once", async () => {
    const provider = paypal();
    const vaultId = fake.vaultAccount();
    const input = upsell(vaultId);
    const first = await provider.chargeSavedMethod(input);
    const ordersBefore = fake.orderCount();
    expect(await provider.chargeSavedMethod(input)).toEqual(first);
    expect(fake.orderCount()).toBe(ordersBefore);
  });

  it("an answer lost on the way back throws; the retry with the same id finds the one charge", async () => {
    const provider = paypal();
    const input = upsell(fake.vaultAccount());
    fake.failNext({ path: "/v2/checkout/orders", afterProcessing: true });
    await expect(provider.chargeSavedMethod(input)).rejects.toThrow();
    expect(fake.orderCount()).toBe(1);
    expect(await provider.chargeSavedMethod(input)).toMatchObject({ status: "succeeded" });
    expect(fake.orderCount()).toBe(1);
  });

  it.each<[FakeVaultedOutcome, string]>([
    ["PENDING", "processing"],
    ["DECLINED", "declined"],
    ["PAYER_ACTION_REQUIRED", "requires_action"],
  ])("a vaulted payment that ends %s answers %s", async (vaulted, status) => {
    const provider = paypal();
    fake.setNextVaultedOutcome(vaulted);
    const outcome = await provider.chargeSavedMethod(upsell(fake.vaultAccount()));
    expect(outcome.status).toBe(status);
    if (outcome.status === "requires_action") expect(outcome.actionUrl).toContain(`token=${outcome.providerRef}`);
  });

  // Orders v2 refuses a kept account it does not know with 400 and a revoked one with 422 (never
  // 404): the provider cannot charge silently, so the buyer approves this one payment at PayPal.
  it.each<[string, (vaultId: string) => void, number]>([
    ["an id PayPal does not know", () => undefined, 400],
    ["a kept account the buyer revoked", (vaultId) => fake.revokeVault(vaultId), 422],
    ["a cancelled billing agreement", (vaultId) => fake.revokeVault(vaultId, "AGREEMENT_ALREADY_CANCELLED"), 422],
    ["an expired token", (vaultId) => fake.revokeVault(vaultId, "TOKEN_EXPIRED"), 422],
  ])("%s opens an on-session PayPal payment for the upsell instead (%i)", async (_, refuse, refusedWith) => {
    const provider = paypal();
    const known = fake.vaultAccount();
    const vaultId = refusedWith === 400 ? "unknownvault" : known;
    refuse(vaultId);
    const input = upsell(vaultId);
    const outcome = await provider.chargeSavedMethod(input);

    const [silent, onSession] = fake.requestsTo("POST", "/v2/checkout/orders");
    expect(fake.exchanges.find((exchange) => exchange.request === silent)?.status).toBe(refusedWith);
    expect(textAt(onSession?.body, "payment_source", "paypal", "vault_id")).toBeUndefined();
    expect(textAt(onSession?.body, "payment_source", "paypal", "experience_context", "return_url")).toBe(`https://shop.example/checkout-return/${paymentId}`);
    expect(textAt(onSession?.body, "purchase_units", 0, "amount", "value")).toBe("19.90");
    expect(onSession?.headers["paypal-request-id"]).toBe(`${input.idempotencyKey}:on-session`);
    if (outcome.status !== "requires_action") throw new Error(`expected requires_action, got ${outcome.status}`);
    expect(outcome.actionUrl).toContain(`token=${outcome.providerRef}`);

    // A retry of the same acceptance finds the same payment, and the buyer's approval pays it.
    expect(await provider.chargeSavedMethod(input)).toEqual(outcome);
    expect(fake.orderCount()).toBe(1);
    fake.approve(outcome.providerRef);
    expect(await provider.retrievePayment(outcome.providerRef)).toEqual({ status: "succeeded", providerRef: outcome.providerRef, reusableMethodRef: null });
  });
});

describe("what PayPal's documents say a capture can answer", () => {
  it.each(["PAYER_ACTION_REQUIRED", "REDIRECT_PAYER_FOR_ALTERNATE_FUNDING"] as const)("a capture refused with %s sends the buyer back to PayPal, and their second approval pays", async (issue) => {
    const provider = paypal();
    const orderId = refOf(await provider.startPayment(checkout()));
    fake.approve(orderId, issue);
    const outcome = await provider.retrievePayment(orderId);
    expect(outcome).toEqual({ status: "requires_action", providerRef: orderId, actionUrl: expect.stringContaining(`token=${orderId}`) });
    fake.approve(orderId);
    expect(await provider.retrievePayment(orderId)).toMatchObject({ status: "succeeded", providerRef: orderId });
    // The second capture is a new request: PayPal would answer a repeated id with its first refusal.
    const ids = fake.requestsTo("POST", `/v2/checkout/orders/${orderId}/capture`).map((request) => request.headers["paypal-request-id"]);
    expect(new Set(ids).size).toBe(2);
  });

  it("a capture PayPal holds as PENDING is processing, with the reason PayPal gives", async () => {
    const provider = paypal();
    const orderId = refOf(await provider.startPayment(checkout()));
    fake.approve(orderId, "PENDING");
    expect(await provider.retrievePayment(orderId)).toEqual({ status: "processing", providerRef: orderId });
    expect(textAt(fake.captureOf(orderId), "status_details", "reason")).toBe("PENDING_REVIEW");
  });

  // Every value of Orders v2's `order_status`: none throws, each means what PayPal documents.
  it.each<[FakeOrderStatus, PaymentOutcome["status"], boolean]>([
    ["CREATED", "requires_action", false],
    ["PAYER_ACTION_REQUIRED", "requires_action", false],
    ["APPROVED", "succeeded", true],
    ["SAVED", "succeeded", true],
    ["VOIDED", "declined", false],
    ["COMPLETED", "succeeded", false],
  ])("an order %s reads as %s (captured by us: %s)", async (status, expected, capturedByUs) => {
    const provider = paypal();
    const orderId = refOf(await provider.startPayment(checkout()));
    if (status === "COMPLETED") {
      fake.approve(orderId);
      await provider.retrievePayment(orderId);
    } else {
      fake.setOrderStatus(orderId, status);
    }
    const capturesBefore = fake.requestsTo("POST", /\/capture$/).length;
    const outcome = await provider.retrievePayment(orderId);
    expect(outcome.status).toBe(expected);
    if (outcome.status === "requires_action") expect(outcome.actionUrl).toContain(`token=${orderId}`);
    expect(fake.requestsTo("POST", /\/capture$/).length - capturesBefore).toBe(capturedByUs ? 1 : 0);
  });
});

describe("PayPal-Request-Id", () => {
  const longKey = `order:${randomUUID()}:upsell:${"upsell-with-a-long-step-name".repeat(3)}:attempt:1`;

  it("our key as it is when it fits, else a hash of at most 108 characters, the same each time", () => {
    expect(longKey.length).toBeGreaterThan(108);
    expect(payPalRequestId("order:1:checkout:1")).toBe("order:1:checkout:1");
    expect(payPalRequestId("x".repeat(108))).toBe("x".repeat(108));
    expect(payPalRequestId(longKey).length).toBeLessThanOrEqual(108);
    expect(payPalRequestId(longKey)).toBe(payPalRequestId(longKey));
    expect(payPalRequestId(longKey)).not.toBe(payPalRequestId(`${longKey}:refund`));
  });

  it.each<[string, (provider: PayPalProvider) => Promise<unknown>]>([
    ["a checkout", (provider) => provider.startPayment(checkout({ idempotencyKey: longKey }))],
    ["an upsell on the kept account", (provider) => provider.chargeSavedMethod({ idempotencyKey: longKey, orderNumber: "VN-1", amountMinor: 990, currency: "EUR", reusableMethodRef: fake.vaultAccount(), returnUrl: "/checkout-return/x" })],
    ["an upsell after a refused account", (provider) => provider.chargeSavedMethod({ idempotencyKey: longKey, orderNumber: "VN-1", amountMinor: 990, currency: "EUR", reusableMethodRef: "refused", returnUrl: "/checkout-return/x" })],
    [
      "a refund",
      async (provider) => {
        const { orderId } = await paidOrder(provider);
        return provider.refund({ idempotencyKey: longKey, providerRef: orderId, amountMinor: 100 });
      },
    ],
  ])("%s with a key longer than 108 characters sends ids PayPal takes", async (_, call) => {
    await call(paypal());
    const sent = fake.requests.flatMap((request) => request.headers["paypal-request-id"] ?? []);
    expect(sent.length).toBeGreaterThan(0);
    for (const id of sent) expect(id.length).toBeLessThanOrEqual(108);
    expect(fake.exchanges.map((exchange) => JSON.stringify(exchange.body))).not.toContainEqual(expect.stringContaining("INVALID_STRING_LENGTH"));
  });
});

describe("refund", () => {
  const refundKey = () => `refund:${randomUUID()}`;

  it("refunds part and then the rest from the order's capture", async () => {
    const provider = paypal();
    const { orderId } = await paidOrder(provider);
    const captureId = textAt(fake.captureOf(orderId), "id");
    const key = refundKey();

    const part = await provider.refund({ idempotencyKey: key, providerRef: orderId, amountMinor: 3000 });
    expect(part).toEqual({ status: "succeeded", refundRef: expect.any(String) });
    const [request] = fake.requestsTo("POST", `/v2/payments/captures/${captureId}/refund`);
    expect(request?.headers["paypal-request-id"]).toBe(key);
    expect(request?.body).toEqual({ amount: { value: "30.00", currency_code: "EUR" } });

    expect(await provider.refund({ idempotencyKey: refundKey(), providerRef: orderId, amountMinor: 5970 })).toMatchObject({ status: "succeeded" });
    const more = await provider.refund({ idempotencyKey: refundKey(), providerRef: orderId, amountMinor: 1 });
    expect(more).toEqual({ status: "failed", reason: expect.stringContaining("CAPTURE_FULLY_REFUNDED") });
  });

  it("more than was paid fails with PayPal's reason", async () => {
    const provider = paypal();
    const { orderId } = await paidOrder(provider);
    expect(await provider.refund({ idempotencyKey: refundKey(), providerRef: orderId, amountMinor: 8971 })).toEqual({
      status: "failed",
      reason: expect.stringContaining("REFUND_AMOUNT_EXCEEDED"),
    });
  });

  it("a repeated request id answers the first refund and refunds once", async () => {
    const provider = paypal();
    const { orderId } = await paidOrder(provider);
    const input = { idempotencyKey: refundKey(), providerRef: orderId, amountMinor: 5000 };
    const first = await provider.refund(input);
    expect(await provider.refund(input)).toEqual(first);
    // Only 50.00 went back: the remaining 39.70 can still be refunded.
    expect(await provider.refund({ idempotencyKey: refundKey(), providerRef: orderId, amountMinor: 3970 })).toMatchObject({ status: "succeeded" });
  });

  it("a repeated full refund still answers the first refund once nothing is left", async () => {
    const provider = paypal();
    const { orderId } = await paidOrder(provider);
    const input = { idempotencyKey: refundKey(), providerRef: orderId, amountMinor: 8970 };
    const first = await provider.refund(input);
    expect(first.status).toBe("succeeded");
    expect(await provider.refund(input)).toEqual(first);
  });

  it("a refund PayPal accepts as pending stays pending until PayPal's own record of it ends", async () => {
    const provider = paypal();
    const { orderId } = await paidOrder(provider);
    fake.setNextRefundPending();
    const pending = await provider.refund({ idempotencyKey: refundKey(), providerRef: orderId, amountMinor: 100 });
    expect(pending).toEqual({ status: "pending", refundRef: expect.any(String) as string });
    if (pending.status !== "pending") throw new Error("expected a pending refund");
    expect(await provider.retrieveRefund(pending.refundRef)).toEqual({ status: "pending", refundRef: pending.refundRef });
    fake.settleRefund(pending.refundRef, "COMPLETED");
    expect(await provider.retrieveRefund(pending.refundRef)).toEqual({ status: "succeeded", refundRef: pending.refundRef });
  });

  it.each(["FAILED", "CANCELLED"] as const)("a pending refund that PayPal ends as %s failed, and its amount can be refunded again", async (ending) => {
    const provider = paypal();
    const { orderId } = await paidOrder(provider);
    fake.setNextRefundPending();
    const pending = await provider.refund({ idempotencyKey: refundKey(), providerRef: orderId, amountMinor: 8970 });
    if (pending.status !== "pending") throw new Error("expected a pending refund");
    fake.settleRefund(pending.refundRef, ending);
    expect(await provider.retrieveRefund(pending.refundRef)).toEqual({ status: "failed", reason: expect.stringContaining(ending) as string });
    expect(await provider.refund({ idempotencyKey: refundKey(), providerRef: orderId, amountMinor: 8970 })).toMatchObject({ status: "succeeded" });
  });

  it("an order that was never paid has nothing to refund", async () => {
    const provider = paypal();
    const orderId = refOf(await provider.startPayment(checkout()));
    expect(await provider.refund({ idempotencyKey: refundKey(), providerRef: orderId, amountMinor: 100 })).toEqual({ status: "failed", reason: "the order has no captured payment" });
  });

  it("a zero amount fails without calling PayPal", async () => {
    expect(await paypal().refund({ idempotencyKey: refundKey(), providerRef: "ORDER1", amountMinor: 0 })).toMatchObject({ status: "failed" });
    expect(fake.requests).toHaveLength(0);
  });

  it("a 500 makes the refund throw", async () => {
    const provider = paypal();
    const { orderId } = await paidOrder(provider);
    fake.failNext({ path: "/refund" });
    await expect(provider.refund({ idempotencyKey: refundKey(), providerRef: orderId, amountMinor: 100 })).rejects.toThrow(/answered 500/);
  });
});

describe("verifyWebhook", () => {
  function signedHeaders(overrides: Record<string, string | null> = {}): Headers {
    const headers = new Headers({
      "paypal-auth-algo": "SHA256withRSA",
      "paypal-cert-url": "https://api.paypal.com/v1/notifications/certs/CERT-fake",
      "paypal-transmission-id": randomUUID(),
      "paypal-transmission-sig": "c2lnbmF0dXJl",
      "paypal-transmission-time": new Date(clock).toISOString(),
    });
    for (const [name, value] of Object.entries(overrides)) {
      if (value === null) headers.delete(name);
      else headers.set(name, value);
    }
    return headers;
  }

  const event = (eventType: string, resource: unknown, id = `WH-${randomUUID()}`) => JSON.stringify({ id, event_version: "1.0", event_type: eventType, resource });
  const verifyCalls = () => fake.requestsTo("POST", "/v1/notifications/verify-webhook-signature");

  it("asks PayPal with the headers, our webhook id and the event exactly as sent", async () => {
    const rawBody = `{"id":"WH-1",  "event_type":"CHECKOUT.ORDER.APPROVED", "resource":{"id":"X","amount":{"value":"10.50"}}}`;
    const headers = signedHeaders();
    expect(await paypal().verifyWebhook(headers, rawBody)).toEqual({ eventId: "WH-1", event: { type: "payment.awaiting_store", providerRef: "X" } });

    const [request] = verifyCalls();
    expect(request?.body).toEqual({
      auth_algo: "SHA256withRSA",
      cert_url: "https://api.paypal.com/v1/notifications/certs/CERT-fake",
      transmission_id: headers.get("paypal-transmission-id"),
      transmission_sig: "c2lnbmF0dXJl",
      transmission_time: headers.get("paypal-transmission-time"),
      webhook_id: fake.webhookId,
      webhook_event: JSON.parse(rawBody),
    });
    expect(request?.rawBody).toContain(rawBody);
  });

  it("maps each payment event to the PayPal order id", async () => {
    const provider = paypal();
    const { orderId, vaultId } = await paidOrder(provider);
    const capture = fake.captureOf(orderId);
    const captureId = textAt(capture, "id");
    const first = await provider.refund({ idempotencyKey: randomUUID(), providerRef: orderId, amountMinor: 1000 });
    const second = await provider.refund({ idempotencyKey: randomUUID(), providerRef: orderId, amountMinor: 2000 });
    if (first.status !== "succeeded" || second.status !== "succeeded") throw new Error("refunds failed");
    const captureWithoutOrder = without(capture, "supplementary_data");
    const refundWithoutLinks = without(fake.refund(second.refundRef), "links");

    const cases: [string, unknown, PaymentEvent][] = [
      ["PAYMENT.CAPTURE.COMPLETED", capture, { type: "payment.succeeded", providerRef: orderId, reusableMethodRef: vaultId }],
      ["PAYMENT.CAPTURE.COMPLETED", captureWithoutOrder, { type: "payment.succeeded", providerRef: orderId, reusableMethodRef: vaultId }],
      ["PAYMENT.CAPTURE.PENDING", capture, { type: "payment.processing", providerRef: orderId }],
      ["PAYMENT.CAPTURE.DENIED", capture, { type: "payment.failed", providerRef: orderId, code: "card_declined" }],
      ["PAYMENT.CAPTURE.DECLINED", capture, { type: "payment.failed", providerRef: orderId, code: "card_declined" }],
      ["PAYMENT.CAPTURE.REFUNDED", fake.refund(first.refundRef), { type: "payment.refunded", providerRef: orderId, amountRefundedMinor: 1000, refund: { refundRef: first.refundRef, status: "succeeded" } }],
      ["PAYMENT.CAPTURE.REFUNDED", fake.refund(second.refundRef), { type: "payment.refunded", providerRef: orderId, amountRefundedMinor: 3000, refund: { refundRef: second.refundRef, status: "succeeded" } }],
      [
        "PAYMENT.CAPTURE.REFUNDED",
        { ...refundWithoutLinks, supplementary_data: { related_ids: { capture_id: captureId } } },
        { type: "payment.refunded", providerRef: orderId, amountRefundedMinor: 3000, refund: { refundRef: second.refundRef, status: "succeeded" } },
      ],
      ["CUSTOMER.DISPUTE.CREATED", { dispute_id: "PP-D-1", disputed_transactions: [{ seller_transaction_id: captureId }] }, { type: "payment.disputed", providerRef: orderId, disputeRef: "PP-D-1" }],
      [
        "CUSTOMER.DISPUTE.RESOLVED",
        { dispute_id: "PP-D-1", status: "RESOLVED", disputed_transactions: [{ seller_transaction_id: captureId }], dispute_outcome: { outcome_code: "RESOLVED_SELLER_FAVOUR" } },
        { type: "payment.dispute_closed", providerRef: orderId, disputeRef: "PP-D-1", outcome: "RESOLVED_SELLER_FAVOUR" },
      ],
      ["CUSTOMER.DISPUTE.CREATED", { dispute_id: "PP-D-2", disputed_transactions: [{ seller_transaction_id: "UNKNOWNCAPTURE" }] }, { type: "ignored", providerType: "CUSTOMER.DISPUTE.CREATED" }],
      ["VAULT.PAYMENT-TOKEN.CREATED", { id: "abc" }, { type: "ignored", providerType: "VAULT.PAYMENT-TOKEN.CREATED" }],
    ];
    for (const [eventType, resource, expected] of cases) {
      const id = `WH-${randomUUID()}`;
      expect(await provider.verifyWebhook(signedHeaders(), event(eventType, resource, id)), eventType).toEqual({ eventId: id, event: expected });
    }
  });

  it("a dispute PayPal opens and resolves is told as CUSTOMER.DISPUTE.CREATED, then CUSTOMER.DISPUTE.RESOLVED with its outcome", async () => {
    const provider = paypal();
    const { orderId } = await paidOrder(provider);
    const created = await provider.verifyWebhook(signedHeaders(), fake.webhookEvent("CUSTOMER.DISPUTE.CREATED", orderId));
    expect(created.event).toEqual({ type: "payment.disputed", providerRef: orderId, disputeRef: expect.stringMatching(/^PP-D-/) as string });
    const resolved = await provider.verifyWebhook(signedHeaders(), fake.webhookEvent("CUSTOMER.DISPUTE.RESOLVED", orderId));
    expect(resolved.event).toEqual({ type: "payment.dispute_closed", providerRef: orderId, disputeRef: created.event.type === "payment.disputed" ? created.event.disputeRef : "", outcome: "RESOLVED_SELLER_FAVOUR" });
  });

  it("a pending refund that completes is told as PAYMENT.CAPTURE.REFUNDED of that refund", async () => {
    const provider = paypal();
    const { orderId } = await paidOrder(provider);
    fake.setNextRefundPending();
    const pending = await provider.refund({ idempotencyKey: randomUUID(), providerRef: orderId, amountMinor: 2000 });
    if (pending.status !== "pending") throw new Error("expected a pending refund");
    fake.settleRefund(pending.refundRef, "COMPLETED");
    const rawBody = fake.webhookEvent("PAYMENT.CAPTURE.REFUNDED", orderId);
    expect((await provider.verifyWebhook(signedHeaders(), rawBody)).event).toEqual({
      type: "payment.refunded",
      providerRef: orderId,
      amountRefundedMinor: 2000,
      refund: { refundRef: pending.refundRef, status: "succeeded" },
    });
  });

  it.each<[string, FakeEventType[], (orderId: string) => PaymentEvent, PaymentOutcome["status"]]>([
    [
      "a reversed capture is refunded in full",
      ["PAYMENT.CAPTURE.REVERSED"],
      (orderId) => ({ type: "payment.refunded", providerRef: orderId, amountRefundedMinor: 8970, refund: { refundRef: expect.any(String) as string, status: "succeeded" } }),
      "succeeded",
    ],
    ["a pending capture that completes is paid", ["PAYMENT.CAPTURE.COMPLETED"], (orderId) => ({ type: "payment.succeeded", providerRef: orderId, reusableMethodRef: expect.any(String) as string }), "succeeded"],
    ["a pending capture that is denied failed", ["PAYMENT.CAPTURE.DENIED"], (orderId) => ({ type: "payment.failed", providerRef: orderId, code: "card_declined" }), "declined"],
    ["an approval PayPal reversed before capture failed", ["CHECKOUT.PAYMENT-APPROVAL.REVERSED"], (orderId) => ({ type: "payment.failed", providerRef: orderId, code: "card_declined" }), "declined"],
  ])("%s", async (_, eventTypes, expected, finally_) => {
    const provider = paypal();
    const orderId = refOf(await provider.startPayment(checkout()));
    const eventType = eventTypes[0] as FakeEventType;
    if (eventType === "CHECKOUT.PAYMENT-APPROVAL.REVERSED") fake.approve(orderId);
    else {
      fake.approve(orderId, eventType === "PAYMENT.CAPTURE.REVERSED" ? "COMPLETED" : "PENDING");
      await provider.retrievePayment(orderId);
    }
    const rawBody = fake.webhookEvent(eventType, orderId);
    const verified = await provider.verifyWebhook(signedHeaders(), rawBody);
    expect(verified).toEqual({ eventId: JSON.parse(rawBody).id, event: expected(orderId) });
    // PayPal's own state agrees with what the event said.
    expect((await provider.retrievePayment(orderId)).status).toBe(finally_);
  });

  it("rejects what PayPal does not verify", async () => {
    fake.setVerificationStatus("FAILURE");
    await expect(paypal().verifyWebhook(signedHeaders(), event("PAYMENT.CAPTURE.COMPLETED", {}))).rejects.toBeInstanceOf(WebhookRejected);
  });

  it("rejects events signed for another webhook", async () => {
    await expect(paypal({ webhookId: "SOMEONEELSE0001" }).verifyWebhook(signedHeaders(), event("PAYMENT.CAPTURE.COMPLETED", {}))).rejects.toBeInstanceOf(WebhookRejected);
  });

  it.each(["paypal-auth-algo", "paypal-cert-url", "paypal-transmission-id", "paypal-transmission-sig", "paypal-transmission-time"])(
    "rejects a delivery without %s, without asking PayPal",
    async (header) => {
      await expect(paypal().verifyWebhook(signedHeaders({ [header]: null }), event("PAYMENT.CAPTURE.COMPLETED", {}))).rejects.toBeInstanceOf(WebhookRejected);
      expect(verifyCalls()).toHaveLength(0);
    },
  );

  it.each<[string, number, boolean]>([
    ["301 s old", -301, false],
    ["301 s ahead", 301, false],
    ["299 s old", -299, true],
    ["299 s ahead", 299, true],
  ])("a transmission time %s is accepted: %s", async (_, offsetSeconds, accepted) => {
    const headers = signedHeaders({ "paypal-transmission-time": new Date(clock + offsetSeconds * 1000).toISOString() });
    const verifying = paypal().verifyWebhook(headers, event("CHECKOUT.ORDER.APPROVED", {}));
    if (accepted) await expect(verifying).resolves.toMatchObject({ event: { type: "ignored" } });
    else await expect(verifying).rejects.toBeInstanceOf(WebhookRejected);
    expect(verifyCalls()).toHaveLength(accepted ? 1 : 0);
  });

  it.each(["not json", "[1,2]", '{"event_type":"PAYMENT.CAPTURE.COMPLETED"}', '{"id":"WH-1"}', "yesterday"])("rejects the body %j", async (rawBody) => {
    await expect(paypal().verifyWebhook(signedHeaders(), rawBody)).rejects.toBeInstanceOf(WebhookRejected);
  });

  it("rejects an unreadable transmission time", async () => {
    await expect(paypal().verifyWebhook(signedHeaders({ "paypal-transmission-time": "yesterday" }), event("X", {}))).rejects.toBeInstanceOf(WebhookRejected);
  });

  it("throws an ordinary error when PayPal's check fails with 500, so the delivery is retried", async () => {
    fake.failNext({ path: "verify-webhook-signature" });
    const error = await paypal()
      .verifyWebhook(signedHeaders(), event("PAYMENT.CAPTURE.COMPLETED", {}))
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PayPalApiError);
    expect(error).not.toBeInstanceOf(WebhookRejected);
  });
});

describe("secrets", () => {
  it("no error message or answer carries the client secret, the credentials or an access token", async () => {
    const provider = paypal();
    const outcomes: unknown[] = [];
    const errors: unknown[] = [];
    const settle = async (call: Promise<unknown>) => {
      await call.then(
        (value) => outcomes.push(value),
        (error: unknown) => errors.push(error),
      );
    };

    const { orderId } = await paidOrder(provider);
    await settle(provider.refund({ idempotencyKey: randomUUID(), providerRef: orderId, amountMinor: 999_999 }));
    fake.failNext();
    await settle(provider.retrievePayment(orderId));
    fake.failNext({ status: 503, path: "/v1/oauth2/token" });
    fake.revokeTokens();
    await settle(provider.retrievePayment(orderId));
    fake.setVerificationStatus("FAILURE");
    await settle(provider.verifyWebhook(new Headers(), "{}"));
    await settle(paypal({ clientSecret: "wrong-secret" }).startPayment(checkout()));
    // PayPal goes away after issuing a token: the network error of the next call must not name it.
    const vanishing = await startFakePayPal();
    const cut = paypal({ apiUrl: vanishing.url, clientId: vanishing.clientId, clientSecret: vanishing.clientSecret });
    const cutOrder = refOf(await cut.startPayment(checkout()));
    await vanishing.close();
    await settle(cut.retrievePayment(cutOrder));

    expect(errors).toHaveLength(5);
    expect(outcomes).toEqual([{ status: "failed", reason: expect.stringContaining("REFUND_AMOUNT_EXCEEDED") }]);
    expect(errors.at(-1)).toBeInstanceOf(PayPalUnreachable);
    const tokens = [...fake.requests, ...vanishing.requests].flatMap((request) => /^Bearer (\S+)$/.exec(request.headers.authorization ?? "")?.[1] ?? []);
    expect(tokens.length).toBeGreaterThan(0);
    // Whole tokens and their halves, so a shortened token in a message also counts.
    const tokenParts = tokens.flatMap((token) => [token, token.slice(0, 20), token.slice(-20)]);
    const secrets = [fake.clientSecret, "wrong-secret", Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString("base64"), ...tokenParts];
    const said = [...errors.map((error) => (error instanceof Error ? `${error.message} ${String(error.stack)}` : String(error))), JSON.stringify(outcomes)].join("\n");
    for (const secret of secrets) expect(said).not.toContain(secret);
  });
});
