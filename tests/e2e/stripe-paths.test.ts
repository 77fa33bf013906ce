import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe/fake-stripe-api";
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
  });
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

// Live mode reaches no fake: only with STORE_TEST_PROVIDER_URLS=1 does it take the fake's loopback
// address, and then the go-live check fails on it, so these tests see the check against the fake and
// the refusal to start (docs/decisions/0031-money-after-the-charge.md).
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

  async function startFailure(env: Record<string, string>): Promise<string> {
    const error = await startServer(env).then(
      async (server) => {
        await server.stop();
        return null;
      },
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ServerExitError);
    return (error as ServerExitError).output;
  }

  it("refuses to start with a provider URL on this machine, naming it", { timeout: 60_000 }, async () => {
    stripe = await startFakeStripe({ secretKey: "sk_live_store", webhookSecret: "whsec_store" });
    const output = await startFailure({ STORE_MODE: "live", PUBLIC_URL: publicUrl, SMTP_URL: mailbox.url, ...stripeSettings(stripe, "live") });
    expect(output).toContain("STRIPE_API_URL must be the provider's own (https://api.stripe.com) with STORE_MODE=live");
    expect(stripe.requests).toEqual([]);
    await stripe.close();
  });

  it("refuses to start while the go-live check fails, saying what to change", { timeout: 60_000 }, async () => {
    stripe = await startFakeStripe({ secretKey: "sk_live_store", webhookSecret: "whsec_store" });
    const output = await startFailure({ STORE_MODE: "live", STORE_TEST_PROVIDER_URLS: "1", PUBLIC_URL: "http://shop.example.test", SMTP_URL: mailbox.url, ...stripeSettings(stripe, "live") });
    expect(output).toMatch(/FAIL\s+Public address\s+http:\/\/shop\.example\.test is not https/);
    expect(output).toMatch(/FAIL\s+Provider addresses\s+STORE_TEST_PROVIDER_URLS is set/);
    expect(output).toMatch(/FAIL\s+Stripe webhook\s+no enabled endpoint for http:\/\/shop\.example\.test\/webhooks\/stripe/);
    expect(output).toMatch(/FAIL\s+Stripe payment methods\s+not available on the account: DE klarna/);
    expect(output).toMatch(/FAIL\s+Digital products' files\s+no file for Vitanor Calm Mind audio programme \(mind\)/);
    expect(output).toContain("STORE_MODE=live does not start while the go-live check fails");
    await stripe.close();
  });

  it("with the account ready, fails the go-live check on the test providers' addresses alone, and does not start", { timeout: 90_000 }, async () => {
    stripe = await startFakeStripe({
      secretKey: "sk_live_store",
      webhookSecret: "whsec_store",
      webhookEndpoints: [{ url: `${publicUrl}/webhooks/stripe`, enabled_events: ["*"] }],
      paymentMethodConfigurations: [{ enabled: ["card", "klarna", "bancontact", "sepa_debit", "eps", "swish", "mobilepay", "twint"] }],
    });
    // Live mode sells nothing it cannot deliver: each digital product's file is stored first.
    const dataDir = await mkdtemp(join(tmpdir(), "storefront-live-"));
    try {
      for (const productId of ["ebook", "mind"]) {
        const path = join(dataDir, `${productId}.pdf`);
        await writeFile(path, randomPdf(1000));
        expect((await addFile({ DATA_DIR: dataDir }, productId, path)).status).toBe(0);
      }
      const output = await startFailure({ DATA_DIR: dataDir, STORE_MODE: "live", STORE_TEST_PROVIDER_URLS: "1", PUBLIC_URL: publicUrl, SMTP_URL: mailbox.url, ...stripeSettings(stripe, "live") });
      expect(output).toMatch(/ok\s+Stripe webhook/);
      expect(output).toMatch(/ok\s+Stripe payment methods/);
      expect(output).toMatch(/ok\s+Digital products' files/);
      expect(output.match(/^FAIL\s+.*$/gm)).toEqual([expect.stringMatching(/^FAIL\s+Provider addresses\s/)]);
      expect(output).toContain("STORE_MODE=live does not start while the go-live check fails");
      expect(stripe.requestsTo("POST", "/v1/payment_intents")).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
