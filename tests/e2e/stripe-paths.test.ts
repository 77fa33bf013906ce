import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe/fake-stripe-api";
import { fillContact } from "./support/buyer";
import { openHydrated, openPageSession } from "./support/chromium";
import { addFile, randomPdf } from "./support/digital-files";
import { freePort } from "./support/free-port";
import { startMailbox, type Mailbox } from "./support/mailbox";
import { ServerExitError, startServer, type RunningServer } from "./support/server";

const session = openPageSession({ width: 390, height: 844 });
const page = () => session.page;

/** The fake's stand-in for the Payment Element: its card field appears once Stripe.js ran. */
const stripeCardField = '[data-fake-stripe="number"]';

function stripeSettings(fake: FakeStripe, keys: "test" | "live") {
  return {
    STRIPE_SECRET_KEY: `sk_${keys}_store`,
    STRIPE_PUBLISHABLE_KEY: `pk_${keys}_store`,
    STRIPE_WEBHOOK_SECRET: "whsec_store",
    STRIPE_API_URL: fake.url,
    STRIPE_JS_URL: `${fake.url}/v3`,
  };
}

// Every way a buyer reaches the checkout, with Stripe configured: the Payment Element must load
// under whichever page's content-security policy is in force, and no console error may appear.
describe("the ways into the checkout with Stripe configured", () => {
  let stripe: FakeStripe;
  let server: RunningServer;
  beforeAll(async () => {
    stripe = await startFakeStripe({ secretKey: "sk_test_store", webhookSecret: "whsec_store" });
    const port = await freePort();
    server = await startServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...stripeSettings(stripe, "test") });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await stripe?.close();
  });

  async function expectPaymentElement(): Promise<void> {
    await page().waitForURL(/\/checkout(\/de)?\?bundle=/);
    await page().locator(stripeCardField).waitFor({ timeout: 15_000 });
    expect(session.problems).toEqual([]);
  }

  it("a click on an offer's bundle", async () => {
    await openHydrated(page(), `${server.url}/offer/de`);
    await page().getByTestId("product-card").nth(1).getByRole("link").click();
    await expectPaymentElement();
  });

  it("the quiz summary's button, then a bundle", async () => {
    await openHydrated(page(), `${server.url}/summary/de`);
    await page().getByTestId("order-now").click();
    await page().getByTestId("product-card").first().waitFor();
    await page().getByTestId("product-card").first().getByRole("link").click();
    await expectPaymentElement();
  });

  it("an upsell page's choose link", async () => {
    await openHydrated(page(), `${server.url}/upsell/de`);
    await page().getByTestId("upsell-choose").first().click();
    await expectPaymentElement();
  });

  it("a reload, the back button and the forward button", async () => {
    await openHydrated(page(), `${server.url}/offer/de`);
    await page().getByTestId("product-card").nth(1).getByRole("link").click();
    await expectPaymentElement();
    await page().reload();
    await expectPaymentElement();
    await page().goBack();
    await page().waitForURL(/\/offer\/de$/);
    await page().goForward();
    await expectPaymentElement();
  });

  it("a direct link", async () => {
    await openHydrated(page(), `${server.url}/checkout/de?bundle=shape-3`);
    await expectPaymentElement();
  });

  it("the footer shows the methods Stripe takes in the market, and no PayPal without PayPal", async () => {
    await openHydrated(page(), `${server.url}/offer/se`);
    const marks = page().getByTestId("payment-methods").locator("img");
    await expect.poll(() => marks.count()).toBe(3);
    expect(await marks.evaluateAll((images) => images.map((image) => image.getAttribute("alt")))).toEqual([expect.any(String), "Swish", "Klarna"]);
  });
});

describe("live mode with Stripe", () => {
  const publicUrl = "https://shop.example.test";
  let stripe: FakeStripe;
  let mailbox: Mailbox;
  beforeAll(async () => {
    mailbox = await startMailbox();
  });
  afterAll(async () => {
    await mailbox?.close();
    await stripe?.close();
  });

  it("refuses to start while the go-live check fails, saying what to change", { timeout: 60_000 }, async () => {
    stripe = await startFakeStripe({ secretKey: "sk_live_store", webhookSecret: "whsec_store" });
    const started = startServer({ STORE_MODE: "live", PUBLIC_URL: "http://shop.example.test", SMTP_URL: mailbox.url, ...stripeSettings(stripe, "live") });
    const error = await started.then(
      async (server) => {
        await server.stop();
        return null;
      },
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ServerExitError);
    const output = (error as ServerExitError).output;
    expect(output).toMatch(/FAIL\s+Public address\s+http:\/\/shop\.example\.test is not https/);
    expect(output).toMatch(/FAIL\s+Stripe webhook\s+no enabled endpoint for http:\/\/shop\.example\.test\/webhooks\/stripe/);
    expect(output).toMatch(/FAIL\s+Stripe payment methods\s+not available on the account: DE klarna/);
    expect(output).toMatch(/FAIL\s+Digital products' files\s+no file for Vitanor Calm Mind audio programme \(mind\)/);
    expect(output).toContain("STORE_MODE=live does not start while the go-live check fails");
    await stripe.close();
  });

  it("starts once the check passes, offers only Stripe, and takes a card and a one-click upsell", { timeout: 90_000 }, async () => {
    stripe = await startFakeStripe({
      secretKey: "sk_live_store",
      webhookSecret: "whsec_store",
      webhookEndpoints: [{ url: `${publicUrl}/webhooks/stripe`, enabled_events: ["*"] }],
      paymentMethodConfigurations: [{ enabled: ["card", "klarna", "bancontact", "sepa_debit", "eps", "swish", "mobilepay", "twint"] }],
    });
    // Live mode sells nothing it cannot deliver: each digital product's file is stored first.
    const dataDir = await mkdtemp(join(tmpdir(), "storefront-live-"));
    for (const productId of ["ebook", "mind"]) {
      const path = join(dataDir, `${productId}.pdf`);
      await writeFile(path, randomPdf(1000));
      expect((await addFile({ DATA_DIR: dataDir }, productId, path)).status).toBe(0);
    }
    const server = await startServer({ DATA_DIR: dataDir, STORE_MODE: "live", PUBLIC_URL: publicUrl, SMTP_URL: mailbox.url, ...stripeSettings(stripe, "live") });
    try {
      expect(server.output()).toMatch(/ok\s+Stripe webhook/);
      await openHydrated(page(), `${server.url}/offer/de`);
      await page().getByTestId("product-card").nth(1).getByRole("link").click();
      await page().locator(stripeCardField).waitFor({ timeout: 15_000 });
      expect(await page().locator('input[name="method"]').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual(["stripe", "klarna"]);
      expect(await page().getByTestId("test-mode").count()).toBe(0);
      await fillContact(page(), { email: "lena@example.com", givenName: "Lena", familyName: "Beispiel", addressLine1: "Hauptstraße 5", postalCode: "10115", city: "Berlin" });
      await page().locator(stripeCardField).fill("4242 4242 4242 4242");
      await page().getByTestId("place-order").click();
      await page().waitForURL(/\/upsell\/de\?bundle|\/upsell\/de$/);
      await page().waitForSelector("html[data-hydrated]");
      await page().getByTestId("digital-consent").check();
      await page().getByTestId("upsell-accept").click();
      await page().waitForURL(/\/upsellMind\/de/);
      const [checkout, upsell] = stripe.requestsTo("POST", "/v1/payment_intents");
      expect(checkout?.params).toMatchObject({ amount: "8970", currency: "eur", confirm: "true" });
      expect(upsell?.params).toMatchObject({ amount: "990", off_session: "true", confirm: "true" });
      await openHydrated(page(), `${server.url}/thankyou/de`);
      expect(await page().getByTestId("order-line").count()).toBe(2);
      expect(session.problems).toEqual([]);
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
