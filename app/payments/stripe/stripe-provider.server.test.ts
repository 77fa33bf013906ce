import { randomUUID } from "node:crypto";
import { inspect } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebhookRejected, type ChargeSavedMethodInput, type PaymentEvent, type PaymentOutcome, type StartPaymentInput } from "../provider";
import { fakeTestPaymentMethods, startFakeStripe, type FakeStripe, type RecordedStripeRequest } from "../../../tests/fakes/stripe/fake-stripe-api";
import { requestProblems } from "../../../tests/fakes/stripe/stripe-openapi";
import { checkoutInput } from "../../../tests/fakes/stripe/checkout-input";
import { StripeApiError, StripeUnreachable } from "./stripe-errors.server";
import { createStripeProvider, type StripeProvider, type StripeProviderOptions } from "./stripe-provider.server";

const publicUrl = "https://shop.example";
const paymentId = "3f1c2a9e-5b7d-4c21-9a0e-2b8f6d4e1a73";
let fake: FakeStripe;

beforeEach(async () => {
  fake = await startFakeStripe();
});
afterEach(async () => {
  // Every request of every scenario, checked against Stripe's schema (the fake refuses a bad one too;
  // this catches a request whose refusal a test expected for another reason).
  const problems = fake.requests.filter((request) => request.path.startsWith("/v1/") && !request.injectedFailure).flatMap((request) => requestProblems(request.method, request.path, request.params).map((problem) => `${request.method} ${request.path}: ${problem.message}`));
  await fake.close();
  expect(problems).toEqual([]);
});

function stripe(overrides: Partial<StripeProviderOptions> = {}): StripeProvider {
  return createStripeProvider({ secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, apiUrl: fake.url, publicUrl, ...overrides });
}

function checkout(overrides: Partial<StartPaymentInput> = {}): StartPaymentInput {
  return checkoutInput(`/checkout-return/${paymentId}`, overrides);
}

function upsell(reusableMethodRef: string, overrides: Partial<ChargeSavedMethodInput> = {}): ChargeSavedMethodInput {
  return { idempotencyKey: `order:${randomUUID()}:upsell-1:1`, orderNumber: "VN-ABCD-EFGH", amountMinor: 1990, currency: "EUR", reusableMethodRef, returnUrl: `/checkout-return/${paymentId}`, ...overrides };
}

function refOf(outcome: PaymentOutcome): string {
  if (!outcome.providerRef) throw new Error(`no providerRef in ${JSON.stringify(outcome)}`);
  return outcome.providerRef;
}

function only(requests: RecordedStripeRequest[]): RecordedStripeRequest {
  expect(requests).toHaveLength(1);
  const [request] = requests;
  if (!request) throw new Error("no request");
  return request;
}

/** A paid checkout whose method was kept: the intent and the kept method's reference. */
async function paidWithSavedMethod(provider: StripeProvider, paymentMethod: string = fakeTestPaymentMethods.succeeds): Promise<{ intentId: string; reusableMethodRef: string }> {
  let outcome = await provider.startPayment(checkout({ details: { paymentMethod } }));
  if (outcome.status === "requires_action") {
    fake.authenticate(outcome.providerRef, true);
    outcome = await provider.retrievePayment(outcome.providerRef);
  }
  if (outcome.status !== "succeeded" || !outcome.reusableMethodRef) throw new Error(`expected a paid checkout with a kept method, got ${JSON.stringify(outcome)}`);
  return { intentId: outcome.providerRef, reusableMethodRef: outcome.reusableMethodRef };
}

async function thrownBy(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof Error)) throw new Error(`expected an Error to be thrown, got ${String(error)}`);
  return error;
}

const postsTo = (path: string | RegExp) => fake.requestsTo("POST", path);

describe("startPayment", () => {
  it("pays and keeps the method, sending only Stripe's documented parameters", async () => {
    const input = checkout();
    const outcome = await stripe().startPayment(input);

    const customerRequest = only(postsTo("/v1/customers"));
    expect(customerRequest.params).toEqual({ email: "anna.muster@example.com", name: "Anna Muster" });
    expect(customerRequest.headers["idempotency-key"]).toBe(`${input.idempotencyKey}:customer`);

    const intentRequest = only(postsTo("/v1/payment_intents"));
    const intent = fake.paymentIntent(refOf(outcome));
    expect(intentRequest.params).toEqual({
      amount: "8970",
      currency: "eur",
      customer: intent.customer,
      payment_method: "pm_card_visa",
      confirm: "true",
      return_url: `https://shop.example/checkout-return/${paymentId}`,
      use_stripe_sdk: "false",
      metadata: { order_number: "VN-ABCD-EFGH" },
      setup_future_usage: "off_session",
    });
    expect(intentRequest.headers["idempotency-key"]).toBe(`${input.idempotencyKey}:intent`);
    expect(intentRequest.headers.authorization).toBe(`Bearer ${fake.secretKey}`);
    expect(intentRequest.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);

    // The kept method is the PaymentMethod Stripe made from the token, attached to the new customer.
    expect(intent.customer).toMatch(/^cus_/);
    expect(intent.payment_method).toMatch(/^pm_(?!card_visa)/);
    expect(outcome).toEqual({ status: "succeeded", providerRef: intent.id, reusableMethodRef: `${String(intent.customer)}/${String(intent.payment_method)}` });
    expect(fake.paymentMethod(String(intent.payment_method)).customer).toBe(intent.customer);
    expect(fake.count("charges")).toBe(1);
  });

  it("keeps nothing and asks for no future use when the buyer did not save the method", async () => {
    const outcome = await stripe().startPayment(checkout({ saveMethod: false }));
    expect(outcome).toMatchObject({ status: "succeeded", reusableMethodRef: null });
    expect(only(postsTo("/v1/payment_intents")).params).not.toHaveProperty("setup_future_usage");
  });

  it("confirms with a ConfirmationToken from the Payment Element instead of a PaymentMethod", async () => {
    const token = fake.confirmationToken(fakeTestPaymentMethods.succeeds);
    const outcome = await stripe().startPayment(checkout({ details: { paymentMethod: token } }));
    expect(outcome).toMatchObject({ status: "succeeded", reusableMethodRef: expect.stringMatching(/^cus_\w+\/pm_\w+$/) });
    const params = only(postsTo("/v1/payment_intents")).params;
    expect(params.confirmation_token).toBe(token);
    expect(params).not.toHaveProperty("payment_method");
  });

  it.each([
    ["a declined card", fakeTestPaymentMethods.declined, "card_declined"],
    ["a card without funds", fakeTestPaymentMethods.insufficientFunds, "insufficient_funds"],
  ] as const)("answers %s with our decline code and the intent", async (_name, paymentMethod, code) => {
    const outcome = await stripe().startPayment(checkout({ details: { paymentMethod } }));
    expect(outcome).toEqual({ status: "declined", providerRef: expect.stringMatching(/^pi_/), code });
    expect(fake.paymentIntent(refOf(outcome)).status).toBe("requires_payment_method");
    expect(fake.count("charges")).toBe(0);
  });

  it.each([
    ["a method id the Payment Element did not produce", { paymentMethod: "card-4242" }],
    ["no method at all", {}],
  ])("declines %s without calling Stripe", async (_name, details) => {
    await expect(stripe().startPayment(checkout({ details }))).resolves.toEqual({ status: "declined", providerRef: null, code: "card_declined" });
    expect(fake.requests).toHaveLength(0);
  });

  it("declines a method Stripe does not know, so the buyer can enter another", async () => {
    const outcome = await stripe().startPayment(checkout({ details: { paymentMethod: "pm_doesNotExist" } }));
    expect(outcome).toEqual({ status: "declined", providerRef: null, code: "card_declined" });
    expect(fake.count("payment_intents")).toBe(0);
  });

  it("sends the buyer to Stripe's authentication page and reads the result on return", async () => {
    const provider = stripe();
    const outcome = await provider.startPayment(checkout({ details: { paymentMethod: fakeTestPaymentMethods.authenticationRequired } }));
    const intentId = refOf(outcome);
    expect(outcome).toEqual({ status: "requires_action", providerRef: intentId, actionUrl: `${fake.url}/fake/authenticate/${intentId}` });

    fake.authenticate(intentId, true);
    const returned = await provider.retrievePayment(intentId);
    const intent = fake.paymentIntent(intentId);
    expect(returned).toEqual({ status: "succeeded", providerRef: intentId, reusableMethodRef: `${String(intent.customer)}/${String(intent.payment_method)}` });
    expect(fake.requestsTo("GET", `/v1/payment_intents/${intentId}`)).toHaveLength(1);
  });

  it.each([
    ["swish", "swish_handle_redirect_or_display_qr_code"],
    ["mobilepay", "redirect_to_url"],
    ["twint", "redirect_to_url"],
    ["eps", "redirect_to_url"],
    ["klarna", "redirect_to_url"],
  ])("sends a %s payment to its own page (next action %s), saving nothing, and reads the result on return", async (method, nextAction) => {
    const provider = stripe();
    const outcome = await provider.startPayment(checkout({ method, details: {}, saveMethod: false }));
    const intentId = refOf(outcome);
    expect(outcome).toEqual({ status: "requires_action", providerRef: intentId, actionUrl: `${fake.url}/fake/authenticate/${intentId}` });
    expect(fake.paymentIntent(intentId).next_action).toMatchObject({ type: nextAction });
    const created = postsTo("/v1/payment_intents").at(-1);
    expect(created?.params).toMatchObject({ payment_method_data: { type: method }, allowed_payment_method_types: { 0: method }, confirm: "true", use_stripe_sdk: "false" });
    expect(created?.params).not.toHaveProperty("setup_future_usage");
    expect(created?.params).not.toHaveProperty("customer");
    fake.authenticate(intentId, true);
    expect(await provider.retrievePayment(intentId)).toEqual({ status: "succeeded", providerRef: intentId, reusableMethodRef: null });
  });

  it("keeps a Bancontact payment as the SEPA debit Stripe generated from it, and charges upsells to that", async () => {
    const provider = stripe();
    const outcome = await provider.startPayment(checkout({ method: "stripe", details: { paymentMethod: fakeTestPaymentMethods.bancontact } }));
    const intentId = refOf(outcome);
    expect(outcome.status).toBe("requires_action");
    fake.authenticate(intentId, true);
    const returned = await provider.retrievePayment(intentId);
    if (returned.status !== "succeeded" || !returned.reusableMethodRef) throw new Error("expected a kept method");
    const charge = fake.charge(String(fake.paymentIntent(intentId).latest_charge)) as { payment_method_details: { bancontact?: { generated_sepa_debit: string } } };
    const generated = charge.payment_method_details.bancontact?.generated_sepa_debit;
    expect(returned.reusableMethodRef).toBe(`${String(fake.paymentIntent(intentId).customer)}/${generated}`);
    // A SEPA debit is not paid until Stripe confirms it.
    expect((await provider.chargeSavedMethod(upsell(returned.reusableMethodRef))).status).toBe("processing");
  });

  it("reads a failed authentication as authentication_failed", async () => {
    const provider = stripe();
    const intentId = refOf(await provider.startPayment(checkout({ details: { paymentMethod: fakeTestPaymentMethods.authenticationRequired } })));
    fake.authenticate(intentId, false);
    await expect(provider.retrievePayment(intentId)).resolves.toEqual({ status: "declined", providerRef: intentId, code: "authentication_failed" });
  });

  it.each([
    ["clears", "succeeded", { status: "succeeded" }],
    ["bounces", "failed", { status: "declined", code: "insufficient_funds" }],
  ] as const)("keeps a SEPA debit processing until the bank %s", async (_name, settlement, expected) => {
    const provider = stripe();
    const outcome = await provider.startPayment(checkout({ method: "sepa_debit", details: { paymentMethod: fakeTestPaymentMethods.sepaDebit } }));
    const intentId = refOf(outcome);
    expect(outcome).toEqual({ status: "processing", providerRef: intentId });
    await expect(provider.retrievePayment(intentId)).resolves.toEqual({ status: "processing", providerRef: intentId });

    fake.settle(intentId, settlement);
    await expect(provider.retrievePayment(intentId)).resolves.toMatchObject({ providerRef: intentId, ...expected });
  });

  it("reads an intent Stripe cancelled as declined: cancelled", async () => {
    const provider = stripe();
    const intentId = refOf(await provider.startPayment(checkout({ details: { paymentMethod: fakeTestPaymentMethods.authenticationRequired } })));
    fake.cancel(intentId);
    await expect(provider.retrievePayment(intentId)).resolves.toEqual({ status: "declined", providerRef: intentId, code: "cancelled" });
  });

  it("answers a retry with the same idempotency key with the first intent, charging once", async () => {
    const provider = stripe();
    const input = checkout();
    const first = await provider.startPayment(input);
    const again = await provider.startPayment(input);

    expect(again).toEqual(first);
    expect(postsTo("/v1/payment_intents")).toHaveLength(2);
    expect(fake.count("customers")).toBe(1);
    expect(fake.count("payment_intents")).toBe(1);
    expect(fake.count("charges")).toBe(1);
  });

  it("after an answer lost on the way back, the retry learns the first result instead of paying again", async () => {
    const provider = stripe({ maxNetworkRetries: 0 });
    const input = checkout();
    fake.failNext({ path: "/v1/payment_intents", afterProcessing: true });
    const lost = await thrownBy(provider.startPayment(input));
    expect(lost).toBeInstanceOf(StripeApiError);
    expect(fake.count("charges")).toBe(1);

    const retried = await provider.startPayment(input);
    expect(retried.status).toBe("succeeded");
    expect(fake.count("payment_intents")).toBe(1);
    expect(fake.count("charges")).toBe(1);
  });

  it("throws on a 500 from Stripe, having charged nothing", async () => {
    fake.failNext({ path: "/v1/payment_intents" });
    const error = await thrownBy(stripe({ maxNetworkRetries: 0 }).startPayment(checkout()));
    expect(error).toBeInstanceOf(StripeApiError);
    expect((error as StripeApiError).statusCode).toBe(500);
    expect(error.message).toContain("POST /v1/payment_intents");
    expect(fake.count("charges")).toBe(0);
  });

  it("lets the SDK retry a 500 once with the same idempotency key, and throws when that fails too", async () => {
    const input = checkout();
    fake.failNext({ path: "/v1/payment_intents" });
    await expect(stripe().startPayment(input)).resolves.toMatchObject({ status: "succeeded" });
    const keys = postsTo("/v1/payment_intents").map((request) => request.headers["idempotency-key"]);
    expect(keys).toEqual([`${input.idempotencyKey}:intent`, `${input.idempotencyKey}:intent`]);

    fake.failNext({ path: "/v1/payment_intents" });
    fake.failNext({ path: "/v1/payment_intents" });
    await expect(stripe().startPayment(checkout())).rejects.toBeInstanceOf(StripeApiError);
    expect(fake.count("charges")).toBe(1);
  });

  it("throws StripeUnreachable when the connection drops", async () => {
    // The SDK retries a dropped connection once even without retries: drop both tries.
    fake.failNext({ path: "/v1/payment_intents", dropConnection: true });
    fake.failNext({ path: "/v1/payment_intents", dropConnection: true });
    const error = await thrownBy(stripe({ maxNetworkRetries: 0 }).startPayment(checkout()));
    expect(error).toBeInstanceOf(StripeUnreachable);
    expect(fake.count("payment_intents")).toBe(0);
  });

  it("throws rather than charging when an idempotency key comes back with other parameters", async () => {
    const provider = stripe();
    const input = checkout();
    await provider.startPayment(input);
    const error = await thrownBy(provider.startPayment({ ...input, amountMinor: 9970 }));
    expect(error).toBeInstanceOf(StripeApiError);
    expect((error as StripeApiError).stripeType).toBe("idempotency_error");
    expect(fake.count("charges")).toBe(1);
  });

  it.each([
    ["another site", "https://elsewhere.example/return"],
    ["a protocol-relative URL", "//elsewhere.example/return"],
  ])("refuses a return path to %s before calling Stripe", async (_name, returnUrl) => {
    await expect(stripe().startPayment(checkout({ returnUrl }))).rejects.toThrow(/return path/);
    expect(fake.requests).toHaveLength(0);
  });

  it.each([
    ["a fractional amount", { amountMinor: 89.7 }],
    ["a zero amount", { amountMinor: 0 }],
    ["a currency that is no code", { currency: "euro" }],
  ])("refuses %s before calling Stripe", async (_name, overrides) => {
    await expect(stripe().startPayment(checkout(overrides))).rejects.toThrow();
    expect(fake.requests).toHaveLength(0);
  });
});

describe("cancelPayment", () => {
  it("cancels an intent waiting for 3-D Secure, so authenticating later takes nothing", async () => {
    const provider = stripe();
    const waiting = await provider.startPayment(checkout({ attemptRef: paymentId, details: { paymentMethod: fakeTestPaymentMethods.authenticationRequired } }));
    expect(fake.paymentIntent(refOf(waiting)).metadata).toEqual({ order_number: "VN-ABCD-EFGH", payment_id: paymentId });
    expect(await provider.cancelPayment(refOf(waiting))).toEqual({ status: "declined", providerRef: refOf(waiting), code: "cancelled" });
    expect(fake.paymentIntent(refOf(waiting)).status).toBe("canceled");
    expect(() => fake.authenticate(refOf(waiting), true)).toThrow(/canceled/);
    const request = only(fake.requestsTo("POST", `/v1/payment_intents/${refOf(waiting)}/cancel`));
    expect(request.params).toEqual({ cancellation_reason: "abandoned" });
    // Cancelling again is answered the same.
    expect((await provider.cancelPayment(refOf(waiting))).status).toBe("declined");
  });

  it("answers succeeded when the buyer finished the payment before it could be cancelled", async () => {
    const provider = stripe();
    const waiting = await provider.startPayment(checkout({ details: { paymentMethod: fakeTestPaymentMethods.authenticationRequired } }));
    fake.authenticate(refOf(waiting), true);
    expect(await provider.cancelPayment(refOf(waiting))).toMatchObject({ status: "succeeded", providerRef: refOf(waiting) });
  });
  it("learns on a later try that an intent it could not cancel while processing has since succeeded", async () => {
    const provider = stripe();
    const debit = await provider.startPayment(checkout({ method: "sepa_debit", details: { paymentMethod: fakeTestPaymentMethods.sepaDebit } }));
    const intentId = refOf(debit);
    // Stripe keeps the first answer to a key for 24 hours, refusals included: the next try must not get it back.
    expect(await provider.cancelPayment(intentId)).toEqual({ status: "processing", providerRef: intentId });
    fake.settle(intentId, "succeeded");
    expect(await provider.cancelPayment(intentId)).toMatchObject({ status: "succeeded", providerRef: intentId });
    const keys = fake.requestsTo("POST", `/v1/payment_intents/${intentId}/cancel`).map((request) => request.headers["idempotency-key"]);
    expect(new Set(keys).size).toBe(2);
  });
});

describe("retrievePayment", () => {
  it("refuses a reference that is not a PaymentIntent id without calling Stripe", async () => {
    await expect(stripe().retrievePayment("pi_1/../../v1/refunds")).rejects.toThrow(/not a Stripe PaymentIntent id/);
    expect(fake.requests).toHaveLength(0);
  });

  it("throws when Stripe does not know the intent", async () => {
    await expect(stripe().retrievePayment("pi_unknown123")).rejects.toMatchObject({ name: "StripeApiError", statusCode: 404 });
  });
});

describe("chargeSavedMethod", () => {
  it("charges the kept method off-session with the customer it belongs to", async () => {
    const provider = stripe();
    const { reusableMethodRef } = await paidWithSavedMethod(provider);
    const [customerId, paymentMethodId] = reusableMethodRef.split("/");
    const input = upsell(reusableMethodRef);

    const outcome = await provider.chargeSavedMethod(input);
    expect(outcome).toEqual({ status: "succeeded", providerRef: expect.stringMatching(/^pi_/), reusableMethodRef });

    const request = postsTo("/v1/payment_intents").at(-1);
    expect(request?.params).toEqual({
      amount: "1990",
      currency: "eur",
      customer: customerId,
      payment_method: paymentMethodId,
      off_session: "true",
      confirm: "true",
      return_url: `https://shop.example/checkout-return/${paymentId}`,
      metadata: { order_number: "VN-ABCD-EFGH" },
    });
    expect(request?.headers["idempotency-key"]).toBe(`${input.idempotencyKey}:intent`);
    expect(fake.count("charges")).toBe(2);
  });

  it("charges once when the upsell is retried with the same key", async () => {
    const provider = stripe();
    const { reusableMethodRef } = await paidWithSavedMethod(provider);
    const input = upsell(reusableMethodRef);
    const first = await provider.chargeSavedMethod(input);
    await expect(provider.chargeSavedMethod(input)).resolves.toEqual(first);
    expect(fake.count("charges")).toBe(2);
  });

  it("brings the buyer back on-session when the issuer wants authentication", async () => {
    const provider = stripe();
    const { reusableMethodRef } = await paidWithSavedMethod(provider, fakeTestPaymentMethods.authenticationRequired);
    const [, paymentMethodId] = reusableMethodRef.split("/");
    const input = upsell(reusableMethodRef);

    const outcome = await provider.chargeSavedMethod(input);
    const intentId = refOf(outcome);
    expect(outcome).toEqual({ status: "requires_action", providerRef: intentId, actionUrl: `${fake.url}/fake/authenticate/${intentId}` });

    const confirm = only(postsTo(`/v1/payment_intents/${intentId}/confirm`));
    expect(confirm.params).toEqual({ payment_method: paymentMethodId, return_url: `https://shop.example/checkout-return/${paymentId}`, use_stripe_sdk: "false", setup_future_usage: "off_session" });
    expect(confirm.headers["idempotency-key"]).toBe(`${input.idempotencyKey}:on-session`);

    // A retry of the same upsell replays both answers and creates nothing.
    await expect(provider.chargeSavedMethod(input)).resolves.toEqual(outcome);
    expect(fake.count("payment_intents")).toBe(2);

    fake.authenticate(intentId, true);
    await expect(provider.retrievePayment(intentId)).resolves.toEqual({ status: "succeeded", providerRef: intentId, reusableMethodRef });
  });

  it("declines a kept method Stripe refuses", async () => {
    const provider = stripe();
    const { reusableMethodRef } = await paidWithSavedMethod(provider);
    const [, paymentMethodId] = reusableMethodRef.split("/");
    // The method is attached to its own customer; paired with another one Stripe refuses it.
    const otherCustomer = String(fake.paymentIntent(refOf(await provider.startPayment(checkout({ saveMethod: false })))).customer);
    const outcome = await provider.chargeSavedMethod(upsell(`${otherCustomer}/${paymentMethodId}`));
    expect(outcome).toEqual({ status: "declined", providerRef: null, code: "card_declined" });
    expect(fake.count("charges")).toBe(2);
  });

  it("declines a reference this provider did not make, without calling Stripe", async () => {
    await expect(stripe().chargeSavedMethod(upsell("tgm_0123456789abcdef01234567"))).resolves.toEqual({ status: "declined", providerRef: null, code: "card_declined" });
    expect(fake.requests).toHaveLength(0);
  });

  it("throws on a 500 from Stripe", async () => {
    const provider = stripe({ maxNetworkRetries: 0 });
    const { reusableMethodRef } = await paidWithSavedMethod(provider);
    fake.failNext({ path: "/v1/payment_intents", status: 503 });
    await expect(provider.chargeSavedMethod(upsell(reusableMethodRef))).rejects.toMatchObject({ name: "StripeApiError", statusCode: 503 });
  });
});

describe("refund", () => {
  async function paidIntent(provider: StripeProvider): Promise<string> {
    return refOf(await provider.startPayment(checkout({ saveMethod: false })));
  }

  it("refunds part and then the rest, with documented parameters and idempotency keys", async () => {
    const provider = stripe();
    const intentId = await paidIntent(provider);
    const key = `refund:${randomUUID()}`;

    await expect(provider.refund({ idempotencyKey: key, providerRef: intentId, amountMinor: 3000 })).resolves.toEqual({ status: "succeeded", refundRef: expect.stringMatching(/^re_/) });
    const request = only(postsTo("/v1/refunds"));
    expect(request.params).toEqual({ payment_intent: intentId, amount: "3000" });
    expect(request.headers["idempotency-key"]).toBe(`${key}:refund`);

    await expect(provider.refund({ idempotencyKey: `refund:${randomUUID()}`, providerRef: intentId, amountMinor: 5970 })).resolves.toMatchObject({ status: "succeeded" });
    const chargeId = String(fake.paymentIntent(intentId).latest_charge);
    expect(fake.charge(chargeId)).toMatchObject({ amount_refunded: 8970, refunded: true });
  });

  it("answers a repeated refund with the first refund", async () => {
    const provider = stripe();
    const input = { idempotencyKey: `refund:${randomUUID()}`, providerRef: await paidIntent(provider), amountMinor: 1000 };
    const first = await provider.refund(input);
    await expect(provider.refund(input)).resolves.toEqual(first);
    expect(fake.count("refunds")).toBe(1);
  });

  it.each([
    ["above what remains", [5000], 3971, /amount_too_large/],
    ["of an already refunded payment", [8970], 1, /charge_already_refunded/],
  ] as const)("fails a refund %s with a reason", async (_name, earlier, amountMinor, reason) => {
    const provider = stripe();
    const intentId = await paidIntent(provider);
    for (const amount of earlier) await provider.refund({ idempotencyKey: randomUUID(), providerRef: intentId, amountMinor: amount });
    const outcome = await provider.refund({ idempotencyKey: randomUUID(), providerRef: intentId, amountMinor });
    expect(outcome).toEqual({ status: "failed", reason: expect.stringMatching(reason) });
    expect(fake.count("refunds")).toBe(earlier.length);
  });

  it("fails a refund of a payment that was never paid", async () => {
    const provider = stripe();
    const declined = await provider.startPayment(checkout({ details: { paymentMethod: fakeTestPaymentMethods.declined } }));
    await expect(provider.refund({ idempotencyKey: randomUUID(), providerRef: refOf(declined), amountMinor: 100 })).resolves.toMatchObject({ status: "failed" });
  });

  it.each([0, -100, 10.5])("fails a refund of %s without calling Stripe", async (amountMinor) => {
    await expect(stripe().refund({ idempotencyKey: randomUUID(), providerRef: "pi_123", amountMinor })).resolves.toMatchObject({ status: "failed" });
    expect(fake.requests).toHaveLength(0);
  });

  it("throws when Stripe fails, so the refund can be retried", async () => {
    const provider = stripe({ maxNetworkRetries: 0 });
    const intentId = await paidIntent(provider);
    fake.failNext({ path: "/v1/refunds" });
    await expect(provider.refund({ idempotencyKey: randomUUID(), providerRef: intentId, amountMinor: 100 })).rejects.toBeInstanceOf(StripeApiError);
  });
});

describe("verifyWebhook", () => {
  const now = Date.UTC(2026, 10, 23, 12, 0, 0);
  const nowSeconds = Math.floor(now / 1000);
  const webhookProvider = () => stripe({ now: () => now });

  function signedHeaders(rawBody: string, options: { timestampSeconds?: number; secret?: string } = {}): Headers {
    return new Headers({ "Content-Type": "application/json", "Stripe-Signature": fake.signature(rawBody, { timestampSeconds: nowSeconds, ...options }) });
  }

  async function verified(type: string, object: unknown): Promise<{ eventId: string; event: PaymentEvent; sentId: string }> {
    const sentId = `evt_${randomUUID().replace(/-/g, "")}`;
    const rawBody = fake.event(type, object, sentId);
    const result = await webhookProvider().verifyWebhook(signedHeaders(rawBody), rawBody);
    return { ...result, sentId };
  }

  it("maps payment_intent.succeeded to asking Stripe for the whole intent, which names the kept method", async () => {
    const provider = stripe();
    const { intentId, reusableMethodRef } = await paidWithSavedMethod(provider);
    const { eventId, event, sentId } = await verified("payment_intent.succeeded", fake.paymentIntent(intentId));
    expect(eventId).toBe(sentId);
    expect(event).toEqual({ type: "payment.awaiting_store", providerRef: intentId });
    expect(await provider.retrievePayment(intentId)).toEqual({ status: "succeeded", providerRef: intentId, reusableMethodRef });
  });

  it("names our attempt from the intent's metadata, so a payment whose intent id never reached us is found", async () => {
    const provider = stripe();
    const paid = await provider.startPayment(checkout({ attemptRef: paymentId }));
    const { event } = await verified("payment_intent.succeeded", fake.paymentIntent(refOf(paid)));
    expect(event).toEqual({ type: "payment.awaiting_store", providerRef: refOf(paid), attemptRef: paymentId });
  });

  it("maps payment_intent.processing", async () => {
    const intentId = refOf(await stripe().startPayment(checkout({ details: { paymentMethod: fakeTestPaymentMethods.sepaDebit } })));
    await expect(verified("payment_intent.processing", fake.paymentIntent(intentId))).resolves.toMatchObject({ event: { type: "payment.processing", providerRef: intentId } });
  });

  it.each([
    [fakeTestPaymentMethods.declined, "card_declined"],
    [fakeTestPaymentMethods.insufficientFunds, "insufficient_funds"],
  ] as const)("maps payment_intent.payment_failed of %s to %s", async (paymentMethod, code) => {
    const intentId = refOf(await stripe().startPayment(checkout({ details: { paymentMethod } })));
    const { event } = await verified("payment_intent.payment_failed", fake.paymentIntent(intentId));
    expect(event).toEqual({ type: "payment.failed", providerRef: intentId, code });
  });

  it("maps charge.refunded to the intent and the total refunded", async () => {
    const provider = stripe();
    const intentId = refOf(await provider.startPayment(checkout()));
    await provider.refund({ idempotencyKey: randomUUID(), providerRef: intentId, amountMinor: 2500 });
    const charge = fake.charge(String(fake.paymentIntent(intentId).latest_charge));
    const { event } = await verified("charge.refunded", charge);
    expect(event).toEqual({ type: "payment.refunded", providerRef: intentId, amountRefundedMinor: 2500 });
  });

  it("maps charge.dispute.created to the disputed intent and the dispute", async () => {
    const intentId = refOf(await stripe().startPayment(checkout()));
    const dispute = fake.dispute(intentId);
    const { event } = await verified("charge.dispute.created", dispute);
    expect(event).toEqual({ type: "payment.disputed", providerRef: intentId, disputeRef: dispute.id });
  });

  it.each(["won", "lost"] as const)("maps charge.dispute.closed of a dispute %s to its closing", async (outcome) => {
    const intentId = refOf(await stripe().startPayment(checkout()));
    const dispute = fake.dispute(intentId);
    const { event } = await verified("charge.dispute.closed", fake.closeDispute(String(dispute.id), outcome));
    expect(event).toEqual({ type: "payment.dispute_closed", providerRef: intentId, disputeRef: dispute.id, outcome });
  });

  it("acknowledges charge.dispute.updated, which neither opens nor closes a dispute", async () => {
    const intentId = refOf(await stripe().startPayment(checkout()));
    const { event } = await verified("charge.dispute.updated", { ...fake.dispute(intentId), status: "under_review" });
    expect(event).toEqual({ type: "ignored", providerType: "charge.dispute.updated" });
  });

  it.each(["customer.created", "payment_intent.created", "charge.succeeded"])("acknowledges %s as ignored", async (type) => {
    const { event } = await verified(type, { id: "obj_123", object: "unknown" });
    expect(event).toEqual({ type: "ignored", providerType: type });
  });

  it("accepts a signature just inside the 300 s tolerance", async () => {
    const rawBody = fake.event("customer.created", { id: "cus_1", object: "customer" });
    await expect(webhookProvider().verifyWebhook(signedHeaders(rawBody, { timestampSeconds: nowSeconds - 299 }), rawBody)).resolves.toMatchObject({ event: { type: "ignored" } });
  });

  const rejections: [string, (rawBody: string) => { headers: Headers; body: string }][] = [
    ["a signature made with another secret", (rawBody) => ({ headers: signedHeaders(rawBody, { secret: "whsec_forged0123456789" }), body: rawBody })],
    ["a body changed after signing", (rawBody) => ({ headers: signedHeaders(rawBody), body: rawBody.replace("pi_", "pi_X") })],
    ["a signature older than 300 s", (rawBody) => ({ headers: signedHeaders(rawBody, { timestampSeconds: nowSeconds - 301 }), body: rawBody })],
    ["a missing Stripe-Signature header", (rawBody) => ({ headers: new Headers({ "Content-Type": "application/json" }), body: rawBody })],
    ["a header that is no signature", (rawBody) => ({ headers: new Headers({ "Stripe-Signature": "garbage" }), body: rawBody })],
  ];

  it.each(rejections)("rejects %s, naming neither secret nor signature", async (_name, make) => {
    const rawBody = fake.event("payment_intent.succeeded", { id: "pi_123", object: "payment_intent", status: "succeeded" });
    const { headers, body } = make(rawBody);
    const error = await thrownBy(webhookProvider().verifyWebhook(headers, body));
    expect(error).toBeInstanceOf(WebhookRejected);
    expect(error.message).toMatch(/^Stripe webhook/);
    const shown = `${error.message}\n${inspect(error)}`;
    expect(shown).not.toContain(fake.webhookSecret);
    const signature = headers.get("stripe-signature");
    if (signature) expect(shown).not.toContain(signature);
  });

  it("tells a stale signature from a forged one", async () => {
    const rawBody = fake.event("customer.created", { id: "cus_1", object: "customer" });
    const stale = await thrownBy(webhookProvider().verifyWebhook(signedHeaders(rawBody, { timestampSeconds: nowSeconds - 301 }), rawBody));
    const forged = await thrownBy(webhookProvider().verifyWebhook(signedHeaders(rawBody, { secret: "whsec_other" }), rawBody));
    expect(stale.message).toMatch(/too old/);
    expect(forged.message).toMatch(/does not match/);
  });
});

describe("secrets", () => {
  it("never appear in thrown errors or outcomes", async () => {
    const wrongKey = "sk_test_wrongKey51Hx0123456789zq9X";
    const errors: Error[] = [];
    errors.push(await thrownBy(stripe({ secretKey: wrongKey }).startPayment(checkout())));
    fake.failNext();
    errors.push(await thrownBy(stripe({ maxNetworkRetries: 0 }).startPayment(checkout())));
    const provider = stripe();
    const input = checkout();
    const outcome = await provider.startPayment(input);
    errors.push(await thrownBy(provider.startPayment({ ...input, amountMinor: 100 })));
    errors.push(await thrownBy(provider.retrievePayment("pi_missing")));

    expect(errors[0]).toMatchObject({ name: "StripeApiError", statusCode: 401 });
    expect(errors).toHaveLength(4);
    for (const error of errors) {
      const shown = `${error.message}\n${inspect(error)}\n${JSON.stringify(error)}`;
      for (const secret of [wrongKey, wrongKey.slice(-4), fake.secretKey, fake.webhookSecret]) expect(shown).not.toContain(secret);
    }
    expect(JSON.stringify(outcome)).not.toContain(fake.secretKey);
    expect(JSON.stringify(provider)).not.toContain(fake.secretKey);
  });

  it("are not echoed when an option is malformed", () => {
    const malformed = "pk_test_publishableNotSecret0123";
    expect(() => createStripeProvider({ secretKey: malformed, webhookSecret: "whsec_x", publicUrl })).toThrow(/secretKey/);
    let message = "";
    try {
      createStripeProvider({ secretKey: malformed, webhookSecret: "whsec_x", publicUrl });
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    expect(message).not.toContain(malformed);
  });
});

describe("options", () => {
  it.each([
    ["a path", "http://127.0.0.1:12345/stripe"],
    ["no URL", "stripe"],
    ["another protocol", "ftp://127.0.0.1"],
  ])("refuse an apiUrl with %s", (_name, apiUrl) => {
    expect(() => stripe({ apiUrl })).toThrow(/apiUrl/);
  });

  it("join the public URL and the return path without doubling slashes", async () => {
    await stripe({ publicUrl: "https://shop.example/" }).startPayment(checkout());
    expect(only(postsTo("/v1/payment_intents")).params.return_url).toBe(`https://shop.example/checkout-return/${paymentId}`);
  });
});

describe("Stripe's documented behaviour the redirect flow relies on", () => {
  it.each([
    ["a PaymentMethod", () => fakeTestPaymentMethods.authenticationRequired],
    ["a ConfirmationToken", () => fake.confirmationToken(fakeTestPaymentMethods.authenticationRequired)],
  ])("confirms 3-D Secure with %s as use_stripe_sdk=false, so the buyer gets a redirect_to_url page", async (_name, method) => {
    const outcome = await stripe().startPayment(checkout({ details: { paymentMethod: method() } }));
    const intentId = refOf(outcome);
    expect(only(postsTo("/v1/payment_intents")).params).toMatchObject({ use_stripe_sdk: "false", return_url: `https://shop.example/checkout-return/${paymentId}` });
    expect(fake.paymentIntent(intentId).next_action).toMatchObject({ type: "redirect_to_url" });
    expect(outcome).toEqual({ status: "requires_action", providerRef: intentId, actionUrl: `${fake.url}/fake/authenticate/${intentId}` });
  });

  it("hands a use_stripe_sdk next action to Stripe.js with the intent's client secret, and reads how the challenge ended", async () => {
    // What Stripe answers without use_stripe_sdk=false: a ConfirmationToken defaults it to true.
    const token = fake.confirmationToken(fakeTestPaymentMethods.authenticationRequired);
    const created = await fetch(`${fake.url}/v1/payment_intents`, {
      method: "POST",
      headers: { Authorization: `Bearer ${fake.secretKey}`, "Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": randomUUID() },
      body: `amount=1000&currency=eur&confirmation_token=${token}&confirm=true&return_url=${encodeURIComponent("https://shop.example/r")}`,
    });
    const intent = (await created.json()) as { id: string; client_secret: string; next_action: { type: string } };
    expect(intent.next_action.type).toBe("use_stripe_sdk");
    await expect(stripe().retrievePayment(intent.id)).resolves.toEqual({ status: "requires_action", providerRef: intent.id, clientSecret: intent.client_secret });
    fake.authenticate(intent.id, false);
    await expect(stripe().retrievePayment(intent.id)).resolves.toEqual({ status: "declined", providerRef: intent.id, code: "authentication_failed" });
  });

  it("refuses a ConfirmationToken used once already, as a decline the buyer can retry", async () => {
    const provider = stripe();
    const token = fake.confirmationToken(fakeTestPaymentMethods.succeeds);
    expect((await provider.startPayment(checkout({ details: { paymentMethod: token } }))).status).toBe("succeeded");
    await expect(provider.startPayment(checkout({ details: { paymentMethod: token } }))).resolves.toEqual({ status: "declined", providerRef: null, code: "card_declined" });
    expect(fake.count("charges")).toBe(1);
  });

  it.each([
    ["with a return_url (as the provider sends it)", "&return_url=https%3A%2F%2Fshop.example%2Fr", 200],
    ["with allow_redirects=never", "&automatic_payment_methods[enabled]=true&automatic_payment_methods[allow_redirects]=never", 200],
    ["with neither", "", 400],
  ])("answers an off-session confirmation %s as Stripe does", async (_name, extra, status) => {
    const { reusableMethodRef } = await paidWithSavedMethod(stripe());
    const [customer, paymentMethod] = reusableMethodRef.split("/");
    const response = await fetch(`${fake.url}/v1/payment_intents`, {
      method: "POST",
      headers: { Authorization: `Bearer ${fake.secretKey}`, "Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": randomUUID() },
      body: `amount=1990&currency=eur&customer=${customer}&payment_method=${paymentMethod}&off_session=true&confirm=true${extra}`,
    });
    expect(response.status).toBe(status);
    if (status === 400) expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/^A `return_url` must be specified because this Payment Intent is configured to automatically accept the payment methods enabled in the Dashboard/);
  });

  it.each([
    ["eur", 49, 50],
    ["gbp", 29, 30],
    ["sek", 299, 300],
    ["dkk", 249, 250],
    ["chf", 49, 50],
  ])("refuses %s below Stripe's minimum charge (%i) and takes the minimum (%i)", async (currency, below, minimum) => {
    const provider = stripe();
    await expect(provider.startPayment(checkout({ currency, amountMinor: below, saveMethod: false }))).rejects.toMatchObject({ name: "StripeApiError", stripeCode: "amount_too_small" });
    await expect(provider.startPayment(checkout({ currency, amountMinor: minimum, saveMethod: false }))).resolves.toMatchObject({ status: "succeeded" });
  });
});

describe("3-D Secure when Stripe keeps its Stripe.js flow (use_stripe_sdk wins over our false)", () => {
  beforeEach(async () => {
    await fake.close();
    fake = await startFakeStripe({ stripeSdkWins: true });
  });

  it.each([
    ["approves", true, "succeeded"],
    ["fails", false, "declined"],
  ] as const)("a checkout's ConfirmationToken comes back with the client secret for handleNextAction; the buyer %s and the return reads it", async (_name, approved, status) => {
    const provider = stripe();
    const outcome = await provider.startPayment(checkout({ details: { paymentMethod: fake.confirmationToken(fakeTestPaymentMethods.authenticationRequired) } }));
    const intentId = refOf(outcome);
    expect(only(postsTo("/v1/payment_intents")).params).toMatchObject({ use_stripe_sdk: "false" });
    expect(fake.paymentIntent(intentId).next_action).toMatchObject({ type: "use_stripe_sdk" });
    expect(outcome).toEqual({ status: "requires_action", providerRef: intentId, clientSecret: fake.paymentIntent(intentId).client_secret });

    fake.authenticate(intentId, approved);
    const after = await provider.retrievePayment(intentId);
    expect(after.status).toBe(status);
    if (after.status === "declined") expect(after.code).toBe("authentication_failed");
    expect(fake.count("charges")).toBe(approved ? 1 : 0);
  });

  it("an upsell the issuer wants authenticated on-session comes back with the client secret too", async () => {
    const provider = stripe();
    const { reusableMethodRef } = await paidWithSavedMethod(provider, fakeTestPaymentMethods.authenticationRequired);
    const outcome = await provider.chargeSavedMethod(upsell(reusableMethodRef));
    const intentId = refOf(outcome);
    expect(outcome).toEqual({ status: "requires_action", providerRef: intentId, clientSecret: fake.paymentIntent(intentId).client_secret });
    fake.authenticate(intentId, true);
    await expect(provider.retrievePayment(intentId)).resolves.toMatchObject({ status: "succeeded", providerRef: intentId });
  });
});

describe("refunds that Stripe answers pending", () => {
  it.each([
    ["succeeded", "refund.updated"],
    ["failed", "refund.failed"],
    ["failed", "charge.refund.updated"],
  ] as const)("stay pending until Stripe says %s (%s)", async (outcome, eventType) => {
    const provider = stripe();
    const intentId = refOf(await provider.startPayment(checkout({ saveMethod: false })));
    fake.holdNextRefund();
    const refund = await provider.refund({ idempotencyKey: randomUUID(), providerRef: intentId, amountMinor: 8970 });
    expect(refund).toEqual({ status: "pending", refundRef: expect.stringMatching(/^re_/) });
    if (refund.status !== "pending") throw new Error("expected a pending refund");

    fake.settleRefund(refund.refundRef, outcome);
    const rawBody = fake.event(eventType, fake.refund(refund.refundRef));
    const { event } = await provider.verifyWebhook(new Headers({ "stripe-signature": fake.signature(rawBody) }), rawBody);
    expect(event).toEqual({ type: "refund.settled", providerRef: intentId, refundRef: refund.refundRef, status: outcome });
    const charge = fake.charge(String(fake.paymentIntent(intentId).latest_charge));
    expect(charge.amount_refunded).toBe(outcome === "succeeded" ? 8970 : 0);
  });

  it("ignores a refund event while the refund is still pending", async () => {
    const provider = stripe();
    const intentId = refOf(await provider.startPayment(checkout({ saveMethod: false })));
    fake.holdNextRefund();
    const refund = await provider.refund({ idempotencyKey: randomUUID(), providerRef: intentId, amountMinor: 100 });
    if (refund.status !== "pending") throw new Error("expected a pending refund");
    const rawBody = fake.event("refund.updated", fake.refund(refund.refundRef));
    const { event } = await provider.verifyWebhook(new Headers({ "stripe-signature": fake.signature(rawBody) }), rawBody);
    expect(event).toEqual({ type: "ignored", providerType: "refund.updated" });
  });
});
