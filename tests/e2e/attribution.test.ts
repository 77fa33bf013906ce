import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addOperator, logIn } from "./support/back-office";
import { fillContact, payByCard } from "./support/buyer";
import { launchChromium, openHydrated } from "./support/chromium";
import { createPostgresDatabase, databaseKinds } from "./support/postgres";
import { startServer, type RunningServer } from "./support/server";

/**
 * Where an order came from, by the buyer's path: arriving on an offer page from an ad's address,
 * accepting or refusing the consent banner, buying with the offer page's button through the
 * checkout and the upsells, and coming back directly later; then the operator's: the order's
 * touch, the attribution report's rows and its CSV.
 */

const personAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
/** A picture of the report at 1280 px for the people reviewing it; outside the repository. */
const shotsDir = process.env.E2E_SHOTS_DIR;
const ownerPassword = "owner password 1234";
const contact = { givenName: "Jonas", familyName: "Beispiel", addressLine1: "Hauptstraße 5", postalCode: "10115", city: "Berlin" };
const adQuery = "?utm_source=meta&utm_medium=paid_social&utm_campaign=spring-e2e&utm_content=video-a&fbclid=IwAR2xE2E";
const declinedQuery = "?utm_source=tiktok&utm_medium=paid_social&utm_campaign=decline-e2e&ttclid=E.C.P.e2e";

describe.each(databaseKinds)("attribution on %s", (kind) => {
  let dataDir: string;
  let server: RunningServer;
  let browser: Browser;
  let database: { url: string; drop(): Promise<void> } | undefined;
  const placed: Record<string, string> = {};

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "storefront-attribution-"));
    database = kind === "postgres" ? await createPostgresDatabase("attribution") : undefined;
    const env = { DATA_DIR: dataDir, GTM_ID: "GTM-T3ST42", ...(database ? { DATABASE_URL: database.url } : {}) };
    expect(addOperator(env, "owner@example.com", "owner", ownerPassword).status).toBe(0);
    server = await startServer(env);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /**
   * A visitor whose tag manager answers with an empty script (no network here): a new one, or the
   * one of `earlier` coming back another day, with what their browser kept but the access to their
   * earlier order's pages. A person's user agent: the headless one's views are a crawler's.
   */
  async function newVisitor(earlier?: BrowserContext): Promise<BrowserContext> {
    const kept = earlier ? await earlier.storageState() : undefined;
    const storageState = kept ? { ...kept, cookies: kept.cookies.filter((cookie) => !cookie.name.startsWith("vn_")) } : undefined;
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: personAgent, ...(storageState ? { storageState } : {}) });
    await context.route("https://www.googletagmanager.com/**", (route) => route.fulfill({ contentType: "text/javascript", body: "" }));
    return context;
  }

  /** From the offer page's 3-box button through the checkout, paid by card, the upsells declined: the order's number. */
  async function buyFromOffer(page: Page, query: string, email: string, consent?: "accept" | "reject"): Promise<string> {
    await openHydrated(page, `${server.url}/offer/de${query}`);
    if (consent) await page.getByTestId(`consent-${consent}`).click();
    await page.locator('[data-testid="product-card"] a[href*="bundle=shape-3"]').click();
    await page.waitForURL(/\/checkout\/de\?bundle=shape-3/);
    await page.waitForSelector("html[data-hydrated]");
    await fillContact(page, { email, ...contact });
    // Once consent is given, the checkout's page view keeps the touch on the device; the order is placed after it.
    if (consent === "accept") await expect.poll(async () => (await page.context().cookies()).some((cookie) => cookie.name === "vitanor_touch")).toBe(true);
    await payByCard(page, "4242 4242 4242 4242");
    await page.waitForURL(/\/(upsell|upsellMind|thankyou)\//);
    while (!new URL(page.url()).pathname.startsWith("/thankyou/")) {
      const upsell = page.url();
      await page.getByTestId("upsell-decline").click();
      await page.waitForURL((url) => url.toString() !== upsell);
    }
    return ((await page.getByTestId("order-number").textContent()) ?? "").trim();
  }

  const touchCookie = async (context: BrowserContext) => (await context.cookies()).find((cookie) => cookie.name === "vitanor_touch");

  it("keeps the ad's touch with the order, and for a consenting visitor who comes back directly", { timeout: 120_000 }, async () => {
    const context = await newVisitor();
    const page = await context.newPage();
    placed.ad = await buyFromOffer(page, adQuery, `accepted.${kind}@example.com`, "accept");
    // The checkout's page view, after the consent, kept the touch on the device for 30 days.
    const cookie = await touchCookie(context);
    expect(cookie?.expires).toBeGreaterThan(Date.now() / 1000 + 29 * 86_400);
    expect(decodeURIComponent(decodeURIComponent(cookie?.value ?? ""))).toContain("IwAR2xE2E");

    const returning = await newVisitor(context);
    await context.close();
    placed.returned = await buyFromOffer(await returning.newPage(), "", `accepted.${kind}@example.com`);
    await returning.close();
  });

  it("without consent, keeps the touch for the visit only and nothing on the device", { timeout: 120_000 }, async () => {
    const context = await newVisitor();
    const page = await context.newPage();
    placed.declined = await buyFromOffer(page, declinedQuery, `declined.${kind}@example.com`, "reject");
    expect(await touchCookie(context)).toBeUndefined();
    const returning = await newVisitor(context);
    await context.close();
    placed.declinedReturn = await buyFromOffer(await returning.newPage(), "", `declined.${kind}@example.com`);
    expect(await touchCookie(returning)).toBeUndefined();
    await returning.close();
  });

  it("shows each order's touch to the operator", { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await logIn(page, server.url, "owner@example.com", ownerPassword);
    const touchOf = async (number: string | undefined) => {
      await page.goto(`${server.url}/admin/orders/${number ?? ""}`);
      return page.getByTestId("order-touch").textContent();
    };
    expect(await touchOf(placed.ad)).toMatch(/^meta \/ paid_social · campaign spring-e2e · content video-a · fbclid IwAR2xE2E · landed on \/offer\/de$/);
    // Came back directly, still the ad's: the cookie kept it.
    expect(await touchOf(placed.returned)).toMatch(/^meta \/ paid_social · campaign spring-e2e .*fbclid IwAR2xE2E/);
    // Without consent the order keeps the click id's kind but not the id.
    expect(await touchOf(placed.declined)).toBe("tiktok / paid_social · campaign decline-e2e");
    expect(await touchOf(placed.declinedReturn)).toBe("direct / none");
    await context.close();
  });

  it("reports orders and revenue by source and campaign, on the page and as CSV", { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await logIn(page, server.url, "owner@example.com", ownerPassword);
    const today = new Date().toISOString().slice(0, 10);
    await page.goto(`${server.url}/admin/attribution?from=${today}&to=${today}`);
    const row = (source: string, campaign: string) => page.locator(`[data-testid="attribution-row"][data-source="${source}"][data-campaign="${campaign}"]`);
    // Two orders from the ad (one on the return visit), one each from the refused visit and the direct return; 89,70 € each.
    expect(await row("meta", "spring-e2e").getByTestId("attribution-orders").textContent()).toBe("2");
    expect(await row("meta", "spring-e2e").getByTestId("attribution-revenue").textContent()).toBe("€179.40");
    expect(await row("tiktok", "decline-e2e").getByTestId("attribution-orders").textContent()).toBe("1");
    expect(await row("direct", "").getByTestId("attribution-orders").textContent()).toBe("1");
    expect(await row("direct", "").getByTestId("attribution-revenue").textContent()).toBe("€89.70");

    // Opened to its contents.
    await row("meta", "spring-e2e").getByRole("link").click();
    expect(await page.locator('[data-testid="attribution-content-row"][data-content="video-a"]').getByTestId("attribution-orders").textContent()).toBe("2");
    if (shotsDir && kind === "pglite") await page.screenshot({ path: `${shotsDir}/attribution-report.png`, fullPage: true });

    const csv = await page.request.get(`${server.url}${await page.getByTestId("attribution-csv").getAttribute("href")}`);
    expect(csv.headers()["content-type"]).toMatch(/^text\/csv/);
    const [header, ...lines] = parse(await csv.text()) as string[][];
    const column = (name: string) => header?.indexOf(name) ?? -1;
    const meta = lines.find((line) => line[column("source")] === "meta" && line[column("campaign")] === "spring-e2e");
    expect([meta?.[column("orders")], meta?.[column("currency")], meta?.[column("revenue_net_minor")]]).toEqual(["2", "EUR", "17940"]);
    await context.close();
  });
});
