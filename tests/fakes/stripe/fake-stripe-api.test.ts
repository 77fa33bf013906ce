import { createHmac, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseStripeForm, startFakeStripe, type FakeStripe } from "./fake-stripe-api";

/** The fake must refuse what Stripe refuses, or the provider's contract tests prove nothing. */

let fake: FakeStripe;
beforeEach(async () => {
  fake = await startFakeStripe();
});
afterEach(async () => {
  await fake.close();
});

interface Sent {
  status: number;
  body: { error?: { type?: string; code?: string; param?: string; message?: string }; id?: string; status?: string };
  headers: Headers;
}

async function send(method: "GET" | "POST", path: string, options: { form?: string; headers?: Record<string, string> } = {}): Promise<Sent> {
  const headers: Record<string, string> = { Authorization: `Bearer ${fake.secretKey}`, ...options.headers };
  if (method === "POST") {
    headers["Content-Type"] ??= "application/x-www-form-urlencoded";
    headers["Idempotency-Key"] ??= randomUUID();
  }
  const response = await fetch(`${fake.url}${path}`, { method, headers, body: options.form });
  return { status: response.status, body: (await response.json()) as Sent["body"], headers: response.headers };
}

const returnUrl = encodeURIComponent("https://shop.example/checkout-return/1");

async function customerId(): Promise<string> {
  const created = await send("POST", "/v1/customers", { form: "email=a%40example.com&name=A" });
  return String(created.body.id);
}

describe("the fake's contract checks", () => {
  it.each([
    ["no Authorization header", { Authorization: "" }],
    ["another key", { Authorization: "Bearer sk_test_someoneElse" }],
    ["Basic auth", { Authorization: `Basic ${Buffer.from("sk_test_x:").toString("base64")}` }],
  ])("answers 401 to %s", async (_name, headers) => {
    const answer = await send("POST", "/v1/customers", { form: "email=a%40example.com", headers });
    expect(answer.status).toBe(401);
    expect(fake.count("customers")).toBe(0);
  });

  it("answers 400 to a POST without Idempotency-Key", async () => {
    const response = await fetch(`${fake.url}/v1/customers`, { method: "POST", headers: { Authorization: `Bearer ${fake.secretKey}`, "Content-Type": "application/x-www-form-urlencoded" }, body: "name=A" });
    expect(response.status).toBe(400);
    expect(fake.count("customers")).toBe(0);
  });

  it("answers 400 to a JSON body", async () => {
    const answer = await send("POST", "/v1/customers", { form: JSON.stringify({ name: "A" }), headers: { "Content-Type": "application/json" } });
    expect(answer.status).toBe(400);
  });

  it.each([
    ["/v1/customers", "name=A&phone_number=1", "phone_number"],
    ["/v1/payment_intents", "amount=1000&currency=eur&payment_method_types[0]=card", "payment_method_types"],
    ["/v1/refunds", "payment_intent=pi_1&amount=1&refund_note=late", "refund_note"],
    ["/v1/payment_intents", "amount=1000&currency=eur&payment_method_data[type]=swish&payment_method_data[colour]=red", "payment_method_data[colour]"],
    // Parameters of the pinned API version that the document lacks are typed from the stripe package's declarations.
    ["/v1/payment_intents", "amount=1000&currency=eur&hooks[inputs][colour]=red", "hooks[inputs][colour]"],
    ["/v1/payment_intents", "amount=1000&currency=eur&amount_details[colour]=red", "amount_details[colour]"],
  ])("answers parameter_unknown to an undocumented parameter on %s", async (path, form, param) => {
    const answer = await send("POST", path, { form });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: "invalid_request_error", code: "parameter_unknown", param });
  });

  it("refuses an object where a parameter taken from the package is a string", async () => {
    const answer = await send("POST", "/v1/customers", { form: "name=A&individual_name[colour]=red" });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: "invalid_request_error", code: "parameter_invalid", param: "individual_name" });
  });

  it.each([
    ["off_session without confirm", "amount=1000&currency=eur&payment_method=pm_card_visa&off_session=true", "off_session"],
    ["return_url without confirm", "amount=1000&currency=eur&return_url=https%3A%2F%2Fshop.example%2Fr", "return_url"],
    ["a relative return_url", "amount=1000&currency=eur&payment_method=pm_card_visa&confirm=true&return_url=%2Fr", "return_url"],
    ["an upper-case currency", "amount=1000&currency=EUR", "currency"],
    ["a decimal amount", "amount=10.00&currency=eur", "amount"],
    ["a boolean that is not one", "amount=1000&currency=eur&payment_method=pm_card_visa&confirm=yes", "confirm"],
    ["both a method and a ConfirmationToken", "amount=1000&currency=eur&payment_method=pm_card_visa&confirmation_token=ctoken_1&confirm=true", "confirmation_token"],
    ["an unknown customer", "amount=1000&currency=eur&customer=cus_nobody", "customer"],
    ["a method type the API version does not know", "amount=1000&currency=eur&allowed_payment_method_types[0]=sofort_by_post", "allowed_payment_method_types[0]"],
    ["a flag that is not a boolean in a parameter from the package", "amount=1000&currency=eur&amount_details[enforce_arithmetic_validation]=maybe", "amount_details[enforce_arithmetic_validation]"],
  ])("refuses a PaymentIntent with %s", async (_name, form, param) => {
    const answer = await send("POST", "/v1/payment_intents", { form });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body.error?.param).toBe(param);
    expect(fake.count("payment_intents")).toBe(0);
  });

  it("replays the first answer for the same key and parameters, and refuses other parameters", async () => {
    const form = `amount=1000&currency=eur&customer=${await customerId()}&payment_method=pm_card_visa&confirm=true&return_url=${returnUrl}`;
    const first = await send("POST", "/v1/payment_intents", { form, headers: { "Idempotency-Key": "key-1" } });
    const again = await send("POST", "/v1/payment_intents", { form, headers: { "Idempotency-Key": "key-1" } });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(fake.count("charges")).toBe(1);

    const other = await send("POST", "/v1/payment_intents", { form: form.replace("amount=1000", "amount=2000"), headers: { "Idempotency-Key": "key-1" } });
    expect(other.status).toBe(400);
    expect(other.body.error?.type).toBe("idempotency_error");
    expect(fake.count("payment_intents")).toBe(1);
  });

  it("makes a new PaymentMethod from a test token and refuses it to another customer", async () => {
    const owner = await customerId();
    const paid = await send("POST", "/v1/payment_intents", { form: `amount=1000&currency=eur&customer=${owner}&payment_method=pm_card_visa&confirm=true&return_url=${returnUrl}&setup_future_usage=off_session` });
    const intent = fake.paymentIntent(String(paid.body.id));
    expect(intent.payment_method).not.toBe("pm_card_visa");
    expect(fake.paymentMethod(String(intent.payment_method)).customer).toBe(owner);

    const stranger = await customerId();
    const refused = await send("POST", "/v1/payment_intents", { form: `amount=1000&currency=eur&customer=${stranger}&payment_method=${String(intent.payment_method)}&confirm=true&off_session=true&return_url=${returnUrl}` });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.param).toBe("payment_method");
  });

  it("fails an off-session charge that needs authentication with a 402 carrying the intent", async () => {
    const form = `amount=1000&currency=eur&payment_method=pm_card_authenticationRequired&confirm=true&off_session=true&return_url=${returnUrl}`;
    const answer = await send("POST", "/v1/payment_intents", { form });
    expect(answer.status).toBe(402);
    expect(answer.body.error).toMatchObject({ type: "card_error", code: "authentication_required", payment_intent: { status: "requires_payment_method" } });
  });

  it("answers 404 to a path the provider does not use and to an unknown intent", async () => {
    expect((await send("GET", "/v1/charges")).status).toBe(404);
    expect((await send("GET", "/v1/payment_intents/pi_missing")).body.error?.code).toBe("resource_missing");
  });

  it("fails the next request when told to, then works again", async () => {
    fake.failNext({ status: 503 });
    expect((await send("POST", "/v1/customers", { form: "name=A" })).status).toBe(503);
    expect((await send("POST", "/v1/customers", { form: "name=A" })).status).toBe(200);
    expect(fake.count("customers")).toBe(1);
  });

  it("signs webhooks as Stripe does, so the SDK accepts them", () => {
    const rawBody = fake.event("payment_intent.succeeded", { id: "pi_1", object: "payment_intent" });
    const header = fake.signature(rawBody, { timestampSeconds: 1_800_000_000 });
    const expected = createHmac("sha256", fake.webhookSecret).update(`1800000000.${rawBody}`).digest("hex");
    expect(header).toBe(`t=1800000000,v1=${expected}`);
    const event = Stripe.webhooks.constructEvent(rawBody, header, fake.webhookSecret, 300, undefined, 1_800_000_000_000);
    expect(event.type).toBe("payment_intent.succeeded");
  });
});

describe("use_stripe_sdk and the Stripe.js stand-in's handleNextAction", () => {
  const confirm = (token: string) => send("POST", "/v1/payment_intents", { form: `amount=1000&currency=eur&confirmation_token=${token}&confirm=true&use_stripe_sdk=false&return_url=${returnUrl}` });
  const nextAction = (key: string, clientSecret: string) =>
    fetch(`${fake.url}/fake/next-action`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: `key=${key}&client_secret=${encodeURIComponent(clientSecret)}` });

  it("answers our use_stripe_sdk=false with a redirect, unless the mode where the token's default wins is on", async () => {
    const redirect = await confirm(fake.confirmationToken("pm_card_authenticationRequired"));
    expect(fake.paymentIntent(String(redirect.body.id)).next_action).toMatchObject({ type: "redirect_to_url" });
    await fake.close();
    fake = await startFakeStripe({ stripeSdkWins: true });
    const sdk = await confirm(fake.confirmationToken("pm_card_authenticationRequired"));
    expect(fake.paymentIntent(String(sdk.body.id)).next_action).toMatchObject({ type: "use_stripe_sdk" });
  });

  it("lets handleNextAction start only with the publishable key and the right secret of an intent waiting for Stripe.js", async () => {
    await fake.close();
    fake = await startFakeStripe({ stripeSdkWins: true });
    const waiting = await confirm(fake.confirmationToken("pm_card_authenticationRequired"));
    const intent = fake.paymentIntent(String(waiting.body.id));
    const secret = String(intent.client_secret);
    expect((await nextAction("pk_test_x", secret)).status).toBe(200);
    expect((await nextAction("sk_test_x", secret)).status).toBe(401);
    expect((await nextAction("pk_test_x", `${secret}x`)).status).toBe(404);
    fake.authenticate(String(intent.id), true);
    expect((await nextAction("pk_test_x", secret)).status).toBe(400);
  });
});

describe("parseStripeForm", () => {
  it("reads bracket notation into nested objects", () => {
    expect(parseStripeForm("a=1&metadata%5Border_number%5D=VN-1&expand[0]=x&b[c][d]=2")).toEqual({ params: { a: "1", metadata: { order_number: "VN-1" }, expand: { 0: "x" }, b: { c: { d: "2" } } } });
  });

  it.each(["a=1&a=2", "a=1&a[b]=2", "a[=1", "__proto__[x]=1&__proto__[x]=2"])("refuses %s", (form) => {
    expect(parseStripeForm(form)).toHaveProperty("problem");
  });
});

describe("test support stays out of the application", () => {
  it.each(["app", "server"])("no module of %s/ outside its tests imports the fakes", (folder) => {
    const directory = fileURLToPath(new URL(`../../../${folder}`, import.meta.url));
    const offenders = (readdirSync(directory, { recursive: true }) as string[])
      .filter((file) => /\.(ts|tsx)$/.test(file) && !/\.test\.tsx?$/.test(file))
      .filter((file) => /fakes\/|fake-stripe/.test(readFileSync(join(directory, file), "utf8")));
    expect(offenders).toEqual([]);
  });
});

describe("the account's settings a go-live check reads", () => {
  it("lists the webhook endpoints and payment method configurations it was given, in live mode for a live key", async () => {
    const live = await startFakeStripe({
      secretKey: "sk_live_fakeStore",
      webhookEndpoints: [{ url: "https://shop.example/webhooks/stripe", enabled_events: ["payment_intent.succeeded"], status: "disabled" }],
      paymentMethodConfigurations: [{ name: "Store", enabled: ["card", "swish"] }],
    });
    try {
      const get = async (path: string) => (await fetch(`${live.url}${path}`, { headers: { Authorization: `Bearer ${live.secretKey}` } })).json() as Promise<{ object: string; data: Record<string, unknown>[] }>;
      const endpoints = await get("/v1/webhook_endpoints");
      expect(endpoints).toMatchObject({ object: "list", data: [{ object: "webhook_endpoint", url: "https://shop.example/webhooks/stripe", enabled_events: ["payment_intent.succeeded"], status: "disabled", livemode: true }] });
      const configurations = await get("/v1/payment_method_configurations");
      expect(configurations.data[0]).toMatchObject({ name: "Store", active: true, livemode: true, card: { available: true, display_preference: { value: "on" } }, swish: { display_preference: { value: "on" } }, klarna: { display_preference: { value: "off" } } });
    } finally {
      await live.close();
    }
  });
});
