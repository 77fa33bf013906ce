import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGa4, type FakeGa4 } from "../fakes/ga4-measurement-protocol";
import { startFakeMetaConversions, type FakeMetaConversions } from "../fakes/meta-conversions-api";
import { fillContact, payByCard } from "./support/buyer";
import { launchChromium, openHydrated } from "./support/chromium";
import { mailFiles, readable } from "./support/mail-files";
import { createPostgresDatabase, databaseKinds } from "./support/postgres";
import { startServer, type RunningServer } from "./support/server";

/**
 * Server-side conversions by the buyer's path: from an ad's URL with `fbclid` to the offer page,
 * consent given or refused in the banner, the offer page's bundle button, the checkout paid with
 * the test gateway's card, an upsell accepted and the rest declined to the thank-you page. The
 * fakes of Meta's Conversions API and GA4's Measurement Protocol stand in for the platforms. The test
 * gateway's orders are test-mode orders, which reach only each platform's test facility: Meta's Test
 * events (a test event code) and GA4's validation server, never what the platforms count.
 */
const pixel = { pixelId: "1234567890", accessToken: "EAAB-e2e-token" };
const stream = { measurementId: "G-E2E123", apiSecret: "e2e-secret" };
const fbclid = "IwAR2F4-dbP0l7Mn1IawQQ_e2e";
const contact = { givenName: "Jonas", familyName: "Beispiel", addressLine1: "Hauptstraße 5", postalCode: "10115", city: "Berlin" };
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

type Ga4Body = { events?: { name: string; params?: { transaction_id?: string } }[] };

describe.each(databaseKinds)("server-side conversions on %s", (kind) => {
  let dataDir: string;
  let server: RunningServer;
  let browser: Browser;
  let meta: FakeMetaConversions;
  let ga4: FakeGa4;
  let database: { url: string; drop(): Promise<void> } | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "storefront-conversions-"));
    database = kind === "postgres" ? await createPostgresDatabase("conversions") : undefined;
    [meta, ga4] = await Promise.all([startFakeMetaConversions(pixel), startFakeGa4(stream)]);
    server = await startServer({
      DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.url } : {}),
      GTM_ID: "GTM-T3ST42",
      META_PIXEL_ID: pixel.pixelId,
      META_CAPI_TOKEN: pixel.accessToken,
      META_API_URL: meta.url,
      GA4_MEASUREMENT_ID: stream.measurementId,
      GA4_API_SECRET: stream.apiSecret,
      GA4_API_URL: ga4.url,
    });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await Promise.all([meta?.close(), ga4?.close()]);
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A fresh visitor whose browser answers for the tag manager (no network here). */
  async function newVisitor(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.route("https://www.googletagmanager.com/**", (route) => route.fulfill({ contentType: "text/javascript", body: "window.tagManagerRan = true;" }));
    return context.newPage();
  }

  /** From the ad to the thank-you page, consenting or not; the order's number. */
  async function buyFromAnAd(page: Page, email: string, consent: "accept" | "reject"): Promise<string> {
    await openHydrated(page, `${server.url}/offer/de?utm_source=facebook&utm_campaign=autumn&fbclid=${fbclid}`);
    await page.getByTestId(`consent-${consent}`).click();
    await page.locator('[data-testid="product-card"] a[href*="bundle=shape-3"]').click();
    await page.waitForURL(/\/checkout\/de\?.*bundle=shape-3/);
    expect(new URL(page.url()).searchParams.get("fbclid")).toBe(fbclid);
    await page.waitForSelector("html[data-hydrated]");
    await fillContact(page, { email, ...contact });
    await payByCard(page, "4242 4242 4242 4242");
    // The first upsell (a digital item) is accepted, the rest declined.
    await page.waitForURL(/\/upsell\/de/);
    await page.waitForSelector("html[data-hydrated]");
    await page.getByTestId("digital-consent").check();
    await page.getByTestId("upsell-accept").click();
    await page.waitForURL((url) => !url.pathname.startsWith("/upsell/"));
    while (!new URL(page.url()).pathname.startsWith("/thankyou/")) {
      const upsell = page.url();
      await page.waitForSelector("html[data-hydrated]");
      await page.getByTestId("upsell-decline").click();
      await page.waitForURL((url) => url.toString() !== upsell);
    }
    return (await page.getByTestId("order-number").textContent()) ?? "";
  }

  /** The confirmation e-mail was written: the outbox has passed the end of the order's funnel. */
  async function confirmationWritten(orderNumber: string): Promise<boolean> {
    const confirmations = (await mailFiles(dataDir)).filter((message) => /^Message-ID: <order-confirmation\./im.test(message));
    return confirmations.map(readable).some((text) => text.includes(orderNumber));
  }

  const metaPurchasesOf = (orderNumber: string) => meta.testEvents.filter((received) => received.event.event_id === orderNumber);
  const ga4PurchasesOf = (orderNumber: string) =>
    ga4.validated.flatMap((body) => (body as Ga4Body).events ?? []).filter((event) => event.params?.transaction_id === orderNumber);
  const countedOf = (orderNumber: string) => [
    ...meta.events.filter((received) => received.event.event_id === orderNumber),
    ...ga4.events.filter((received) => received.params.transaction_id === orderNumber),
  ];

  it("sends each platform's test facility one Purchase of a test order with the hashed e-mail and the ad's click id, the upsell included", { timeout: 120_000 }, async () => {
    const page = await newVisitor();
    const email = `Ad.Buyer.${kind}@Example.com`;
    const orderNumber = await buyFromAnAd(page, email, "accept");
    expect(await page.getByTestId("order-total").textContent()).toMatch(/99,60\s€/);

    // The browser's tag receives the same id in the data layer, so each platform counts one purchase.
    // The tag manager's code loads after the page, so the purchase may follow hydration by a moment.
    const purchases = () => page.evaluate(() => (window.dataLayer ?? []).filter((entry) => (entry as { event?: string }).event === "purchase"));
    await expect.poll(purchases, { timeout: 15_000 }).toEqual([{ event: "purchase", event_id: orderNumber, ecommerce: { transaction_id: orderNumber, value: 99.6, currency: "EUR" } }]);

    await expect.poll(() => metaPurchasesOf(orderNumber).length, { timeout: 30_000 }).toBe(1);
    await expect.poll(() => ga4PurchasesOf(orderNumber).length, { timeout: 30_000 }).toBe(1);
    const [purchase] = metaPurchasesOf(orderNumber);
    expect(purchase?.testEventCode).toBeTruthy();
    expect(purchase?.event).toMatchObject({
      event_name: "Purchase",
      action_source: "website",
      event_source_url: `${server.url}/checkout/de`,
      user_data: { em: [sha256(email.toLowerCase())], client_ip_address: "127.0.0.1" },
      custom_data: { value: 99.6, currency: "EUR" },
    });
    const userData = purchase?.event.user_data as { fbc: string; client_user_agent: string };
    expect(userData.fbc).toMatch(new RegExp(`^fb\\.1\\.\\d{13}\\.${fbclid}$`));
    expect(userData.client_user_agent).toMatch(/Chrome/);
    expect(purchase?.rawBody.toLowerCase()).not.toContain(email.toLowerCase());
    expect(purchase?.rawBody).not.toContain("Beispiel");
    const [ga4Purchase] = ga4PurchasesOf(orderNumber);
    expect(ga4Purchase).toMatchObject({ name: "purchase", params: { value: 99.6, currency: "EUR" } });
    expect(meta.refusals).toEqual([]);
    expect(ga4.refused).toEqual([]);

    // However often the outbox runs from now on, nothing is sent again.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(metaPurchasesOf(orderNumber)).toHaveLength(1);
    expect(ga4PurchasesOf(orderNumber)).toHaveLength(1);
    // A test-mode order is counted by neither platform.
    expect(countedOf(orderNumber)).toEqual([]);
    await page.context().close();
  });

  it("sends nothing for a buyer who refused consent", { timeout: 120_000 }, async () => {
    const page = await newVisitor();
    const orderNumber = await buyFromAnAd(page, `declined.${kind}@example.com`, "reject");
    await expect.poll(() => confirmationWritten(orderNumber), { timeout: 30_000 }).toBe(true);
    // Two more rounds of the outbox, in which a conversion would have gone.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(metaPurchasesOf(orderNumber)).toEqual([]);
    expect(ga4PurchasesOf(orderNumber)).toEqual([]);
    expect(countedOf(orderNumber)).toEqual([]);
    await page.context().close();
  });
});
