import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe/fake-stripe-api";
import { addOperator, logIn } from "./support/back-office";
import { fillContact } from "./support/buyer";
import { launchChromium, openHydrated } from "./support/chromium";
import { createPostgresDatabase, databaseKinds } from "./support/postgres";
import { startServer, type RunningServer } from "./support/server";

/**
 * Stripe's refund events of an order with an upsell, as an operator meets them: the store refunds in
 * the back office and Stripe reports each charge on its own afterwards; or someone refunds in
 * Stripe's dashboard and the back office must not offer that money again.
 */

const ownerPassword = "owner password 1234";

describe.each(databaseKinds)("refund events of an order with an upsell on %s", (kind) => {
  let dataDir: string;
  let stripe: FakeStripe;
  let server: RunningServer;
  let browser: Browser;
  let database: { url: string; drop(): Promise<void> } | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "storefront-refund-events-"));
    database = kind === "postgres" ? await createPostgresDatabase("refund_events") : undefined;
    const env = { DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) };
    stripe = await startFakeStripe({ secretKey: "sk_test_store", webhookSecret: "whsec_store" });
    // The embedded database allows one process at a time: the operator is added before the server starts.
    expect(addOperator(env, "owner@example.com", "owner", ownerPassword).status).toBe(0);
    server = await startServer({
      ...env,
      STRIPE_SECRET_KEY: "sk_test_store",
      STRIPE_PUBLISHABLE_KEY: "pk_test_store",
      STRIPE_WEBHOOK_SECRET: "whsec_store",
      STRIPE_API_URL: stripe.url,
      STRIPE_JS_URL: `${stripe.url}/v3`,
    });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await stripe?.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A buyer pays 89,70 € by card and takes the 9,90 € ebook with one click: the two intents. */
  async function buyWithUpsell(): Promise<{ checkout: string; upsell: string }> {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const before = stripe.requestsTo("POST", "/v1/payment_intents").length;
    await openHydrated(page, `${server.url}/checkout/de?bundle=shape-3`);
    await fillContact(page, { email: `buyer-${randomUUID().slice(0, 8)}@example.com`, givenName: "Lena", familyName: "Beispiel", addressLine1: "Hauptstraße 5", postalCode: "10115", city: "Berlin" });
    await page.locator('[data-fake-stripe="number"]').fill("4242 4242 4242 4242");
    await page.getByTestId("place-order").click();
    await page.waitForURL(/\/upsell\/de$/);
    await page.waitForSelector("html[data-hydrated]");
    await page.getByTestId("digital-consent").check();
    await page.getByTestId("upsell-accept").click();
    await page.waitForURL(/\/upsellMind\/de$/);
    await context.close();
    const [checkout, upsell] = stripe.requestsTo("POST", "/v1/payment_intents").slice(before).map((request) => String((request.responseBody as { id: string }).id));
    if (!checkout || !upsell) throw new Error("expected two PaymentIntents");
    return { checkout, upsell };
  }

  /** Stripe's `charge.refunded` of the intent's charge, signed, as Stripe delivers it. */
  async function deliverChargeRefunded(intentId: string): Promise<number> {
    const charge = stripe.charge(String(stripe.paymentIntent(intentId).latest_charge));
    const body = stripe.event("charge.refunded", charge);
    const response = await fetch(`${server.url}/webhooks/stripe`, { method: "POST", body, headers: { "Content-Type": "application/json", "Stripe-Signature": stripe.signature(body) } });
    return response.status;
  }

  async function ownersPage(): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await logIn(page, server.url, "owner@example.com", ownerPassword);
    await page.waitForURL(/\/admin(\/orders)?$/);
    return page;
  }

  /** The newest order's page in the back office. */
  async function openNewestOrder(page: Page): Promise<void> {
    await page.goto(`${server.url}/admin/orders`);
    await page.getByTestId("admin-order-row").first().getByRole("link").first().click();
    await page.waitForURL(/\/admin\/orders\/[A-Z0-9-]+$/);
  }

  it("takes each charge's charge.refunded after the back office refunded the whole order, and the order stays refunded", { timeout: 120_000 }, async () => {
    const { checkout, upsell } = await buyWithUpsell();
    const page = await ownersPage();
    await openNewestOrder(page);
    await page.getByTestId("admin-refund").click();
    await page.getByTestId("admin-refund-confirm").click();
    await page.waitForURL(/done=refunded/);
    expect(stripe.requestsTo("POST", "/v1/refunds").slice(-2).map((request) => [request.params.payment_intent, request.params.amount]).sort()).toEqual(
      [
        [checkout, "8970"],
        [upsell, "990"],
      ].sort(),
    );
    expect(await deliverChargeRefunded(checkout)).toBe(200);
    expect(await deliverChargeRefunded(upsell)).toBe(200);
    expect(await deliverChargeRefunded(checkout)).toBe(200);
    await page.reload();
    expect(await page.locator(".status").first().textContent()).toMatch(/^refunded$/i);
    expect(await page.getByTestId("admin-refund").count()).toBe(0);
    expect(server.output()).not.toMatch(/cannot go from refunded/);
    await page.context().close();
  });

  it("takes a refund made in Stripe's dashboard off what the back office may still refund, and reaches refunded with the rest", { timeout: 120_000 }, async () => {
    const { checkout, upsell } = await buyWithUpsell();
    // The upsell refunded in Stripe's dashboard: Stripe's own API, not the store.
    const dashboard = await fetch(`${stripe.url}/v1/refunds`, {
      method: "POST",
      headers: { Authorization: `Bearer ${stripe.secretKey}`, "Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": randomUUID() },
      body: `payment_intent=${upsell}`,
    });
    expect(dashboard.status).toBe(200);
    expect(await deliverChargeRefunded(upsell)).toBe(200);
    const page = await ownersPage();
    await openNewestOrder(page);
    expect(await page.locator(".status").first().textContent()).toMatch(/partially refunded/i);
    expect(await page.locator("body").textContent()).toContain("everything not yet refunded (€89.70)");
    await page.getByTestId("admin-refund").click();
    await page.getByTestId("admin-refund-confirm").click();
    await page.waitForURL(/done=refunded/);
    const [last] = stripe.requestsTo("POST", "/v1/refunds").slice(-1);
    expect([last?.params.payment_intent, last?.params.amount]).toEqual([checkout, "8970"]);
    expect(await page.locator(".status").first().textContent()).toMatch(/^refunded$/i);
    expect(await deliverChargeRefunded(checkout)).toBe(200);
    await page.context().close();
  });
});
