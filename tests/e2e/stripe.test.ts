import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe/fake-stripe-api";
import { fillContact } from "./support/buyer";
import { openHydrated, openPageSession } from "./support/chromium";
import { freePort } from "./support/free-port";
import { startServer, type RunningServer } from "./support/server";

const session = openPageSession({ width: 390, height: 844 });
const page = () => session.page;

/** The store with Stripe's test keys, talking to the fake `stripe` and loading its Stripe.js stand-in. */
async function startStoreWithStripe(stripe: FakeStripe): Promise<RunningServer> {
  const port = await freePort();
  return startServer({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    STRIPE_SECRET_KEY: "sk_test_store",
    STRIPE_PUBLISHABLE_KEY: "pk_test_store",
    STRIPE_WEBHOOK_SECRET: "whsec_store",
    STRIPE_API_URL: stripe.url,
    STRIPE_JS_URL: `${stripe.url}/v3`,
  });
}

/** A buyer in Berlin orders the 3-pack at the German checkout and pays with `card` in the Payment Element's stand-in. */
async function payAtCheckout(server: RunningServer, card: string, buyer: { givenName: string; addressLine1: string }): Promise<void> {
  await openHydrated(page(), `${server.url}/checkout/de?bundle=shape-3`);
  await fillContact(page(), { email: `${buyer.givenName.toLowerCase()}@example.com`, givenName: buyer.givenName, familyName: "Beispiel", addressLine1: buyer.addressLine1, postalCode: "10115", city: "Berlin" });
  await page().locator('[data-fake-stripe="number"]').fill(card);
  await page().getByTestId("place-order").click();
}

// Stripe against a local fake of its API, whose stand-in for Stripe.js has a card-number field.
describe("paying with Stripe's Payment Element", () => {
  let stripe: FakeStripe;
  let server: RunningServer;
  beforeAll(async () => {
    stripe = await startFakeStripe({ secretKey: "sk_test_store", webhookSecret: "whsec_store" });
    server = await startStoreWithStripe(stripe);
  });
  afterAll(async () => {
    await server?.stop();
    await stripe?.close();
  });

  const payWith = (card: string) => payAtCheckout(server, card, { givenName: "Lena", addressLine1: "Hauptstraße 5" });

  it("pays with a confirmation token, keeps the card for the customer, and charges an upsell off-session", { timeout: 60_000 }, async () => {
    await payWith("4242 4242 4242 4242");
    await page().waitForURL(/\/upsell\/de$/);
    const [intent] = stripe.requestsTo("POST", "/v1/payment_intents");
    // The redirect flow: a ConfirmationToken would otherwise default to use_stripe_sdk=true.
    expect(intent?.params).toMatchObject({ amount: "8970", currency: "eur", confirm: "true", use_stripe_sdk: "false", setup_future_usage: "off_session", confirmation_token: expect.stringMatching(/^ctoken_/) });
    await page().waitForSelector("html[data-hydrated]");
    await page().getByTestId("digital-consent").check();
    await page().getByTestId("upsell-accept").click();
    await page().waitForURL(/\/upsellMind\/de$/);
    const upsell = stripe.requestsTo("POST", "/v1/payment_intents")[1];
    // Stripe refuses an off-session confirmation without a return_url while the dashboard's methods apply.
    expect(upsell?.params).toMatchObject({ amount: "990", off_session: "true", confirm: "true", return_url: expect.stringMatching(/^http/), customer: expect.stringMatching(/^cus_/) });
    await openHydrated(page(), `${server.url}/thankyou/de`);
    expect(await page().getByTestId("order-line").count()).toBe(2);
    expect(session.problems).toEqual([]);
  });

  it("authenticates on Stripe's page at checkout and again for an upsell that needs it", { timeout: 60_000 }, async () => {
    await payWith("4000 0027 6000 3184");
    await page().getByTestId("stripe-3ds-approve").waitFor();
    const intent = stripe.requestsTo("POST", "/v1/payment_intents").at(-1)?.responseBody as { id: string };
    expect(stripe.paymentIntent(intent.id).next_action).toMatchObject({ type: "redirect_to_url" });
    await page().getByTestId("stripe-3ds-approve").click();
    await page().waitForURL(/\/upsell\/de$/);
    await page().waitForSelector("html[data-hydrated]");
    await page().getByTestId("digital-consent").check();
    await page().getByTestId("upsell-accept").click();
    await page().getByTestId("stripe-3ds-approve").waitFor();
    // Off-session first (refused: authentication_required), then on-session with a page to go to.
    const confirm = stripe.requestsTo("POST", /^\/v1\/payment_intents\/pi_\w+\/confirm$/).at(-1);
    expect(confirm?.params).toMatchObject({ use_stripe_sdk: "false", return_url: expect.stringMatching(/^http/) });
    await page().getByTestId("stripe-3ds-approve").click();
    await page().waitForURL(/\/upsellMind\/de$/);
    await openHydrated(page(), `${server.url}/thankyou/de`);
    expect(await page().getByTestId("order-line").count()).toBe(2);
  });

  it("takes Swish in Sweden on its own page, and asks again on that page for an upsell", { timeout: 60_000 }, async () => {
    await openHydrated(page(), `${server.url}/checkout/se?bundle=shape-3`);
    expect(await page().locator('input[name="method"]').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual(["stripe", "swish", "klarna"]);
    await fillContact(page(), { email: "sara@example.com", givenName: "Sara", familyName: "Lind", addressLine1: "Storgatan 1", postalCode: "114 55", city: "Stockholm" });
    await page().locator('input[name="method"][value="swish"]').check();
    await page().getByTestId("place-order").click();
    await page().getByTestId("stripe-3ds-approve").click();
    await page().waitForURL(/\/upsell\/se$/);
    const [intent] = stripe.requestsTo("POST", "/v1/payment_intents").slice(-1);
    expect(intent?.params).toMatchObject({ payment_method_data: { type: "swish" }, allowed_payment_method_types: { 0: "swish" }, confirm: "true", use_stripe_sdk: "false" });
    // Swish's own next action, whose hosted page the buyer was sent to.
    expect((intent?.responseBody as { next_action: unknown }).next_action).toMatchObject({ type: "swish_handle_redirect_or_display_qr_code" });
    expect(intent?.params).not.toHaveProperty("setup_future_usage");
    await page().waitForSelector("html[data-hydrated]");
    await page().getByTestId("digital-consent").check();
    await page().getByTestId("upsell-accept").click();
    await page().getByTestId("stripe-3ds-approve").click();
    await page().waitForURL(/\/upsellMind\/se$/);
    await openHydrated(page(), `${server.url}/thankyou/se`);
    expect(await page().getByTestId("order-line").count()).toBe(2);
  });

  it("cancels the Klarna payment a buyer leaves for a card, so the card is the only charge", { timeout: 60_000 }, async () => {
    await openHydrated(page(), `${server.url}/checkout/de?bundle=shape-3`);
    await fillContact(page(), { email: "lena@example.com", givenName: "Lena", familyName: "Beispiel", addressLine1: "Hauptstraße 5", postalCode: "10115", city: "Berlin" });
    await page().locator('input[name="method"][value="klarna"]').check();
    await page().getByTestId("place-order").click();
    await page().getByTestId("stripe-3ds-approve").waitFor();
    const klarna = stripe.requestsTo("POST", "/v1/payment_intents").at(-1)?.responseBody as { id: string };
    expect(stripe.paymentIntent(klarna.id).status).toBe("requires_action");

    // The buyer comes back to the checkout instead of finishing at Klarna, and pays by card.
    await openHydrated(page(), `${server.url}/checkout/de?bundle=shape-3`);
    await page().locator('input[name="method"][value="stripe"]').check();
    await page().locator('[data-fake-stripe="number"]').fill("4242 4242 4242 4242");
    await page().getByTestId("place-order").click();
    await page().waitForURL(/\/upsell\/de$/);

    expect(stripe.requestsTo("POST", `/v1/payment_intents/${klarna.id}/cancel`)).toHaveLength(1);
    expect(stripe.paymentIntent(klarna.id).status).toBe("canceled");
    // Finishing at Klarna in the tab left open can no longer take the money.
    expect(() => stripe.authenticate(klarna.id, true)).toThrow(/canceled/);
    const card = stripe.requestsTo("POST", "/v1/payment_intents").at(-1)?.responseBody as { id: string; metadata: Record<string, string> };
    expect(stripe.paymentIntent(card.id).status).toBe("succeeded");
    expect(card.metadata.payment_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("says so when the buyer fails 3-D Secure at checkout, and nothing is paid", { timeout: 60_000 }, async () => {
    await payWith("4000 0027 6000 3184");
    await page().getByTestId("stripe-3ds-fail").click();
    await page().getByTestId("checkout-error").waitFor();
    const intent = stripe.requestsTo("POST", "/v1/payment_intents").at(-1)?.responseBody as { id: string };
    expect(stripe.paymentIntent(intent.id).status).toBe("requires_payment_method");
    expect(page().url()).toMatch(/\/checkout\/de/);
  });

  it("says why a card is declined and keeps the buyer's details", { timeout: 60_000 }, async () => {
    await payWith("4000 0000 0000 0002");
    await page().getByTestId("checkout-error").waitFor();
    expect(await page().locator('[name="city"]').inputValue()).toBe("Berlin");
  });

  it("opens the content-security policy for Stripe on every storefront page, prerendered and cached ones too, and not in the back office", async () => {
    const origin = new URL(stripe.url).origin;
    for (const path of ["/checkout/de?bundle=shape-3", "/offer/de", "/offer", "/summary/de"]) {
      const page = await fetch(`${server.url}${path}`, { headers: { "CF-IPCountry": "DE" } });
      const scripts = /script-src [^;]*/.exec(page.headers.get("content-security-policy") ?? "")?.[0];
      expect(scripts, path).toContain(origin);
    }
    const admin = await fetch(`${server.url}/admin`);
    expect(admin.headers.get("content-security-policy")).not.toContain(origin);
  });
});

// Stripe documents that a ConfirmationToken's use_stripe_sdk "Defaults to `true`": here the fake
// lets that win over our use_stripe_sdk=false, so 3-D Secure is left to Stripe.js's handleNextAction.
describe("3-D Secure when Stripe keeps its Stripe.js flow", () => {
  let stripe: FakeStripe;
  let server: RunningServer;
  beforeAll(async () => {
    stripe = await startFakeStripe({ secretKey: "sk_test_store", webhookSecret: "whsec_store", stripeSdkWins: true });
    server = await startStoreWithStripe(stripe);
  });
  afterAll(async () => {
    await server?.stop();
    await stripe?.close();
  });

  const payWith = (card: string) => payAtCheckout(server, card, { givenName: "Jonas", addressLine1: "Hauptstraße 7" });

  const lastIntentId = () => (stripe.requestsTo("POST", "/v1/payment_intents").at(-1)?.responseBody as { id: string }).id;

  it("finishes the challenge in the page with handleNextAction at checkout and again for an upsell confirmed on-session", { timeout: 60_000 }, async () => {
    await payWith("4000 0027 6000 3184");
    await page().locator('[data-fake-stripe="challenge"]').waitFor();
    const intentId = lastIntentId();
    expect(stripe.requestsTo("POST", "/v1/payment_intents").at(-1)?.params).toMatchObject({ use_stripe_sdk: "false", confirmation_token: expect.stringMatching(/^ctoken_/) });
    expect(stripe.paymentIntent(intentId).next_action).toMatchObject({ type: "use_stripe_sdk" });
    // The buyer stays on our page; the secret never enters an address.
    expect(page().url()).toMatch(/\/checkout\/de\?bundle=shape-3$/);
    await page().getByTestId("stripe-3ds-approve").click();
    await page().waitForURL(/\/upsell\/de$/);
    expect(stripe.paymentIntent(intentId).status).toBe("succeeded");

    await page().waitForSelector("html[data-hydrated]");
    await page().getByTestId("digital-consent").check();
    await page().getByTestId("upsell-accept").click();
    await page().locator('[data-fake-stripe="challenge"]').waitFor();
    // Off-session first (refused: authentication_required), then on-session, answered for Stripe.js.
    const confirm = stripe.requestsTo("POST", /^\/v1\/payment_intents\/pi_\w+\/confirm$/).at(-1);
    expect(confirm?.responseBody).toMatchObject({ status: "requires_action", next_action: { type: "use_stripe_sdk" } });
    expect(page().url()).toMatch(/\/upsell\/de$/);
    await page().getByTestId("stripe-3ds-approve").click();
    await page().waitForURL(/\/upsellMind\/de$/);
    await openHydrated(page(), `${server.url}/thankyou/de`);
    expect(await page().getByTestId("order-line").count()).toBe(2);
    const secrets = stripe.requests.flatMap((request) => {
      const secret = (request.responseBody as { client_secret?: string } | undefined)?.client_secret;
      return secret ? [secret] : [];
    });
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(server.output()).not.toContain(secret);
    expect(session.problems).toEqual([]);
  });

  it("says so when the buyer fails the challenge in the page, charges nothing, and takes another card", { timeout: 60_000 }, async () => {
    await payWith("4000 0027 6000 3184");
    await page().getByTestId("stripe-3ds-fail").click();
    await page().getByTestId("checkout-error").waitFor();
    const failed = lastIntentId();
    expect(stripe.paymentIntent(failed)).toMatchObject({ status: "requires_payment_method", amount_received: 0, last_payment_error: { code: "payment_intent_authentication_failure" } });
    expect(page().url()).toMatch(/\/checkout\/de/);

    await payWith("4242 4242 4242 4242");
    await page().waitForURL(/\/upsell\/de$/);
    expect(lastIntentId()).not.toBe(failed);
    expect(stripe.paymentIntent(lastIntentId()).status).toBe("succeeded");
    expect(stripe.paymentIntent(failed).status).not.toBe("succeeded");
  });
});
