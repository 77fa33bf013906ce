import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakePayPal, type FakePayPal } from "../fakes/paypal/fake-paypal-api";
import { fillContact, payByCard } from "./support/buyer";
import { openHydrated, openPageSession } from "./support/chromium";
import { freePort } from "./support/free-port";
import { startServer, type RunningServer } from "./support/server";

const session = openPageSession({ width: 390, height: 844 });
const page = () => session.page;

// PayPal against a local fake of its API: its buyer page approves at once and sends the buyer back.
describe("paying with PayPal", () => {
  let paypal: FakePayPal;
  let server: RunningServer;
  beforeAll(async () => {
    paypal = await startFakePayPal({ clientId: "client", clientSecret: "secret", webhookId: "WH-STORE" });
    const port = await freePort();
    server = await startServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, PAYPAL_CLIENT_ID: "client", PAYPAL_CLIENT_SECRET: "secret", PAYPAL_WEBHOOK_ID: "WH-STORE", PAYPAL_API_URL: paypal.url });
  });
  afterAll(async () => {
    await server?.stop();
    await paypal?.close();
  });

  it("pays at PayPal, comes back, and accepts an upsell in one click through the vaulted account", { timeout: 60_000 }, async () => {
    await openHydrated(page(), `${server.url}/checkout/fr?bundle=shape-3`);
    await fillContact(page());
    await page().locator('input[name="method"][value="paypal"]').check();
    await page().getByTestId("place-order").click();
    await page().waitForURL(/\/upsell\/fr$/);
    const [created] = paypal.requestsTo("POST", "/v2/checkout/orders");
    expect(created?.body).toMatchObject({
      intent: "CAPTURE",
      payment_source: {
        paypal: {
          attributes: { vault: { store_in_vault: "ON_SUCCESS" } },
          // Back through the funnel's own confirmation page (`/paypal-confirm`), named after the next step.
          experience_context: { return_url: expect.stringMatching(/\/paypal-confirm\/upsell-2\?payment=[0-9a-f-]{36}&r=[\w-]{32}$/) },
        },
      },
    });
    await page().waitForSelector("html[data-hydrated]");
    await page().getByTestId("digital-consent").check();
    await page().getByTestId("upsell-accept").click();
    await page().waitForURL(/\/upsellMind\/fr$/);
    const charges = paypal.requestsTo("POST", "/v2/checkout/orders");
    expect(charges).toHaveLength(2);
    expect(charges[1]?.body).toMatchObject({ payment_source: { paypal: { vault_id: expect.any(String) } } });
    expect(charges[1]?.headers["paypal-request-id"]).toMatch(/:upsell:upsell:1$/);
    await openHydrated(page(), `${server.url}/thankyou/fr`);
    expect(await page().getByTestId("order-line").count()).toBe(2);
  });

  it("comes back as cancelled when the buyer cancels at PayPal, with the details kept", { timeout: 60_000 }, async () => {
    await openHydrated(page(), `${server.url}/checkout/de?bundle=shape-1`);
    await fillContact(page(), { email: "lena@example.com", givenName: "Lena", familyName: "Beispiel", addressLine1: "Hauptstraße 5", postalCode: "10115", city: "Berlin" });
    await page().locator('input[name="method"][value="paypal"]').check();
    await page().route(/\/checkoutnow\?/, async (route) => {
      // The buyer presses "cancel" on PayPal's page: PayPal sends them to the cancel URL.
      const created = paypal.requestsTo("POST", "/v2/checkout/orders").at(-1)?.body as { payment_source: { paypal: { experience_context: { cancel_url: string } } } };
      await route.fulfill({ status: 302, headers: { Location: created.payment_source.paypal.experience_context.cancel_url } });
    });
    await page().getByTestId("place-order").click();
    await page().waitForURL(/\/checkout\/de\?bundle=shape-1$/);
    await page().getByTestId("checkout-error").waitFor();
    expect(await page().locator('[name="city"]').inputValue()).toBe("Berlin");
  });

  it("captures an order approved at PayPal by a buyer who never came back, when PayPal's webhook says so", { timeout: 60_000 }, async () => {
    await openHydrated(page(), `${server.url}/checkout/fr?bundle=shape-1`);
    await fillContact(page());
    await page().locator('input[name="method"][value="paypal"]').check();
    let orderId = "";
    await page().route(/\/checkoutnow\?/, async (route) => {
      // The buyer approves at PayPal, then closes the tab instead of coming back.
      orderId = new URL(route.request().url()).searchParams.get("token") ?? "";
      paypal.approve(orderId);
      await route.fulfill({ status: 200, contentType: "text/html", body: "<p>Approved</p>" });
    });
    await page().getByTestId("place-order").click();
    await expect.poll(() => orderId).not.toBe("");
    paypal.setVerificationStatus("SUCCESS");
    const webhook = JSON.stringify({ id: `WH-${orderId}`, event_version: "1.0", event_type: "CHECKOUT.ORDER.APPROVED", resource: { id: orderId } });
    const headers = {
      "Content-Type": "application/json",
      "PayPal-Auth-Algo": "SHA256withRSA",
      "PayPal-Cert-Url": "https://api.paypal.com/v1/notifications/certs/CERT-fake",
      "PayPal-Transmission-Id": orderId,
      "PayPal-Transmission-Sig": "c2lnbmF0dXJl",
      "PayPal-Transmission-Time": new Date().toISOString(),
    };
    expect((await fetch(`${server.url}/webhooks/paypal`, { method: "POST", body: webhook, headers })).status).toBe(200);
    expect(paypal.requestsTo("POST", `/v2/checkout/orders/${orderId}/capture`)).toHaveLength(1);
    // The buyer's own thank-you page now shows the paid order.
    await openHydrated(page(), `${server.url}/thankyou/fr`);
    expect(await page().getByTestId("order-number").count()).toBe(1);
  });

  /** A French buyer fills the checkout for a bundle and chooses PayPal; `beforePaying` sets up PayPal's answer. */
  async function payWithPayPal(bundle: string, beforePaying: () => void = () => undefined): Promise<void> {
    await openHydrated(page(), `${server.url}/checkout/fr?bundle=${bundle}`);
    await fillContact(page());
    await page().locator('input[name="method"][value="paypal"]').check();
    beforePaying();
    await page().getByTestId("place-order").click();
  }

  /** The PayPal order the last checkout or upsell created. */
  const lastCreatedOrder = (): string => {
    const created = paypal.exchanges.filter((exchange) => exchange.request.path === "/v2/checkout/orders" && exchange.status === 201).at(-1);
    return (created?.body as { id?: string } | undefined)?.id ?? "";
  };

  it("sends the buyer back to PayPal when the capture asks for the payer's action, and pays on their second approval", { timeout: 60_000 }, async () => {
    // PayPal answers the first capture 422 PAYER_ACTION_REQUIRED; the buyer's second approval pays.
    await payWithPayPal("shape-1", () => paypal.setNextCaptureOutcome("PAYER_ACTION_REQUIRED"));
    await page().waitForURL(/\/upsell\/fr$/);
    const orderId = lastCreatedOrder();
    const captures = paypal.exchanges.filter((exchange) => exchange.request.path === `/v2/checkout/orders/${orderId}/capture`);
    expect(captures.map((exchange) => exchange.status)).toEqual([422, 201]);
    expect(paypal.requestsTo("GET", "/checkoutnow").filter((request) => request.query.token === orderId)).toHaveLength(2);
    await openHydrated(page(), `${server.url}/thankyou/fr`);
    expect(await page().getByTestId("order-number").count()).toBe(1);
    expect(await page().locator(".order-status").count()).toBe(0);
  });

  it("sends the buyer back to PayPal to choose another funding source when theirs is declined, and pays with the one they choose", { timeout: 60_000 }, async () => {
    await payWithPayPal("shape-1", () => paypal.setNextCaptureOutcome("INSTRUMENT_DECLINED"));
    await page().waitForURL(/\/upsell\/fr$/);
    const orderId = lastCreatedOrder();
    const captures = paypal.exchanges.filter((exchange) => exchange.request.path === `/v2/checkout/orders/${orderId}/capture`);
    expect(captures.map((exchange) => exchange.status)).toEqual([422, 201]);
    expect(paypal.requestsTo("GET", "/checkoutnow").filter((request) => request.query.token === orderId)).toHaveLength(2);
    await openHydrated(page(), `${server.url}/thankyou/fr`);
    expect(await page().getByTestId("order-number").count()).toBe(1);
  });

  it("turns a kept account PayPal refuses into a PayPal payment the buyer approves for the upsell, and moves on with it on the order", { timeout: 60_000 }, async () => {
    await payWithPayPal("shape-3");
    await page().waitForURL(/\/upsell\/fr$/);
    // The buyer revoked the store's access in their PayPal account: PayPal answers the vault id 422.
    const vault = paypal.order(lastCreatedOrder()) as { payment_source: { paypal: { attributes?: { vault?: { id: string } } } } };
    const vaultId = vault.payment_source.paypal.attributes?.vault?.id ?? "";
    expect(vaultId).not.toBe("");
    paypal.revokeVault(vaultId);
    const approvalsBefore = paypal.requestsTo("GET", "/checkoutnow").length;

    await page().waitForSelector("html[data-hydrated]");
    await page().getByTestId("digital-consent").check();
    await page().getByTestId("upsell-accept").click();
    await page().waitForURL(/\/upsellMind\/fr$/);

    const [silent, onSession] = paypal.exchanges.filter((exchange) => exchange.request.path === "/v2/checkout/orders").slice(-2);
    expect(silent?.status).toBe(422);
    expect(silent?.request.body).toMatchObject({ payment_source: { paypal: { vault_id: vaultId } } });
    expect(onSession?.status).toBe(201);
    expect(onSession?.request.body).toMatchObject({ payment_source: { paypal: { experience_context: { return_url: expect.stringMatching(/\/paypal-confirm\/upsellMind-2\?payment=/) } } } });
    // The buyer approved this one payment on PayPal's page and came back to the funnel.
    expect(paypal.requestsTo("GET", "/checkoutnow")).toHaveLength(approvalsBefore + 1);
    await openHydrated(page(), `${server.url}/thankyou/fr`);
    expect(await page().getByTestId("order-line").count()).toBe(2);
  });

  it("shows an order whose capture PayPal holds as pending on the thank-you page, saying the payment is being confirmed", { timeout: 60_000 }, async () => {
    await payWithPayPal("shape-1", () => paypal.setNextCaptureOutcome("PENDING"));
    await page().waitForURL(/\/thankyou\/fr$/);
    await page().waitForSelector("html[data-hydrated]");
    expect(await page().getByTestId("order-number").count()).toBe(1);
    expect(await page().locator(".order-status").textContent()).toBeTruthy();
  });

  it("charges once when the buyer leaves PayPal for a card and approves at PayPal afterwards", { timeout: 60_000 }, async () => {
    let orderId = "";
    let returnUrl = "";
    await payWithPayPal("shape-1", () => {
      void page().route(/\/checkoutnow\?/, async (route) => {
        // The buyer looks at PayPal's page, then comes back to the store without approving.
        orderId = new URL(route.request().url()).searchParams.get("token") ?? "";
        const created = paypal.requestsTo("POST", "/v2/checkout/orders").at(-1)?.body as { payment_source: { paypal: { experience_context: { return_url: string } } } };
        returnUrl = created.payment_source.paypal.experience_context.return_url;
        await route.fulfill({ status: 200, contentType: "text/html", body: "<p>PayPal</p>" });
      });
    });
    await expect.poll(() => orderId).not.toBe("");
    await page().unroute(/\/checkoutnow\?/);
    await openHydrated(page(), `${server.url}/checkout/fr?bundle=shape-1`);
    await payByCard(page(), "4242 4242 4242 4242");
    await page().waitForURL(/\/upsell\/fr$/);

    // Later the buyer approves in the PayPal tab they left open: PayPal's webhook, then the return.
    paypal.approve(orderId);
    paypal.setVerificationStatus("SUCCESS");
    const webhook = JSON.stringify({ id: `WH-late-${orderId}`, event_version: "1.0", event_type: "CHECKOUT.ORDER.APPROVED", resource: { id: orderId } });
    const headers = {
      "Content-Type": "application/json",
      "PayPal-Auth-Algo": "SHA256withRSA",
      "PayPal-Cert-Url": "https://api.paypal.com/v1/notifications/certs/CERT-fake",
      "PayPal-Transmission-Id": `late-${orderId}`,
      "PayPal-Transmission-Sig": "c2lnbmF0dXJl",
      "PayPal-Transmission-Time": new Date().toISOString(),
    };
    expect((await fetch(`${server.url}/webhooks/paypal`, { method: "POST", body: webhook, headers })).status).toBe(200);
    await page().goto(returnUrl);
    expect(paypal.requestsTo("POST", `/v2/checkout/orders/${orderId}/capture`)).toHaveLength(0);
    await openHydrated(page(), `${server.url}/thankyou/fr`);
    expect(await page().getByTestId("order-number").count()).toBe(1);
  });

  it("shows a buyer whom PayPal's app brings back in another browser the payment's state, never the order", { timeout: 60_000 }, async () => {
    let orderId = "";
    let returnUrl = "";
    await payWithPayPal("shape-1", () => {
      void page().route(/\/checkoutnow\?/, async (route) => {
        // The buyer approves in PayPal's app, which opens the return URL in the phone's default browser.
        orderId = new URL(route.request().url()).searchParams.get("token") ?? "";
        const created = paypal.requestsTo("POST", "/v2/checkout/orders").at(-1)?.body as { payment_source: { paypal: { experience_context: { return_url: string } } } };
        returnUrl = created.payment_source.paypal.experience_context.return_url;
        paypal.approve(orderId);
        await route.fulfill({ status: 200, contentType: "text/html", body: "<p>Approved in the app</p>" });
      });
    });
    await expect.poll(() => orderId).not.toBe("");
    const otherBrowser = await page().context().browser()?.newPage();
    if (!otherBrowser) throw new Error("no second browser context");
    try {
      const answer = await otherBrowser.goto(returnUrl);
      expect(answer?.status()).toBe(200);
      await otherBrowser.getByTestId("return-elsewhere").waitFor();
      expect(await otherBrowser.getByTestId("return-elsewhere").getAttribute("data-state")).toBe("paid");
      expect(await otherBrowser.locator("h1").textContent()).toBe("Votre paiement");
      expect(await otherBrowser.getByTestId("return-elsewhere").textContent()).toContain("boîte e-mail");
      expect(await otherBrowser.getByTestId("order-number").count()).toBe(0);
      expect(paypal.requestsTo("POST", `/v2/checkout/orders/${orderId}/capture`)).toHaveLength(1);
      // The return token names this payment only: without it, the other browser learns nothing.
      const bare = new URL(returnUrl);
      bare.searchParams.delete("r");
      expect((await otherBrowser.goto(bare.toString()))?.status()).toBe(404);
      // Nor does it open the order there.
      await openHydrated(otherBrowser, `${server.url}/thankyou/fr`);
      expect(await otherBrowser.getByTestId("order-number").count()).toBe(0);
    } finally {
      await otherBrowser.close();
    }
    // The buyer's own browser has the paid order.
    await openHydrated(page(), `${server.url}/thankyou/fr`);
    expect(await page().getByTestId("order-number").count()).toBe(1);
  });

  it("is not offered where PayPal cannot vault (Switzerland)", async () => {
    await openHydrated(page(), `${server.url}/checkout/ch?bundle=shape-3`);
    expect(await page().locator('input[name="method"][value="paypal"]').count()).toBe(0);
    expect(await page().locator('input[name="method"][value="card"]').count()).toBe(1);
  });
});
