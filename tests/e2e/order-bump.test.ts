import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCode } from "../../app/codes/codes.server";
import { openDatabase } from "../../app/db/database.server";
import { addOperator, logIn } from "./support/back-office";
import { fillContact, payByCard } from "./support/buyer";
import { launchChromium, openHydrated } from "./support/chromium";
import { createPostgresDatabase, databaseKinds } from "./support/postgres";
import { startServer, type RunningServer } from "./support/server";
import { codeTerms } from "../../app/test-support/code-terms";

/**
 * The checkout's add-on (order bump) by the buyer's path: from the offer page's bundle button to
 * the checkout, the box left alone or ticked, paid with the test gateway's card, through the upsells
 * to the thank-you page; and the operator reading its take rate. In each market 3 boxes of Shape
 * and the Everyday Recipes ebook as the add-on; the code takes 10 % off both lines.
 */
const markets = [
  {
    market: "de",
    contact: { givenName: "Jonas", familyName: "Beispiel", addressLine1: "Hauptstraße 5", postalCode: "10115", city: "Berlin" },
    bundle: /89,70\s€/,
    bump: /9,90\s€/,
    bumped: /99,60\s€/,
    consentRefused: "Bitte bestätigen Sie, dass mit der Bereitstellung der digitalen Inhalte sofort begonnen werden darf.",
    discount: /-9,96\s€/,
    discounted: { total: /89,64\s€/, bundle: /80,73\s€/ },
  },
  {
    market: "se",
    contact: { givenName: "Astrid", familyName: "Lindqvist", addressLine1: "Drottninggatan 12", postalCode: "114 55", city: "Stockholm" },
    bundle: /999,00\skr/,
    bump: /109,00\skr/,
    bumped: /1\s108,00\skr/,
    consentRefused: "Bekräfta att leveransen av det digitala innehållet får påbörjas direkt.",
    // Swedish writes the minus sign as such (U+2212).
    discount: /\u2212110,80\skr/,
    discounted: { total: /997,20\skr/, bundle: /899,10\skr/ },
  },
] as const;

type Market = (typeof markets)[number];

const ownerPassword = "owner password 1234";

describe.each(databaseKinds)("the order bump on %s", (kind) => {
  let dataDir: string;
  let server: RunningServer;
  let browser: Browser;
  let database: { url: string; drop(): Promise<void> } | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "storefront-bump-"));
    database = kind === "postgres" ? await createPostgresDatabase("order_bump") : undefined;
    const env = { DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) };
    // The embedded database allows one process at a time: the code and the operator come before the server.
    const seeded = await openDatabase(database ? { url: database.url } : { dataDir });
    try {
      await createCode(seeded.db, codeTerms("BUMPTEN"));
    } finally {
      await seeded.close();
    }
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

  /** A fresh visitor: a browser context of its own, without the cookies of another test's order. */
  async function newVisitor(javaScriptEnabled = true): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled });
    return context.newPage();
  }

  /** As a visitor goes: the offer page (of a split test's variant when `query` names one), then the 3-box bundle's button. */
  async function checkoutFromOffer(page: Page, market: string, query = ""): Promise<void> {
    await openHydrated(page, `${server.url}/offer/${market}${query}`);
    await page.locator('[data-testid="product-card"] a[href*="bundle=shape-3"]').click();
    await page.waitForURL(new RegExp(`/checkout/${market}\\?bundle=shape-3`));
    await page.waitForSelector("html[data-hydrated]");
  }

  const bumpBox = (page: Page) => page.locator('[data-testid="order-bump"] input[type="checkbox"][name="bump"]');
  const lineTexts = (page: Page) => page.getByTestId("order-line").allTextContents();

  /** Both upsells declined, whichever the funnel shows, until the thank-you page. */
  async function declineUpsellsToThankYou(page: Page, market: string): Promise<void> {
    await page.waitForURL(/\/(upsell|upsellMind|thankyou)\//);
    while (!new URL(page.url()).pathname.startsWith("/thankyou/")) {
      const upsell = page.url();
      await page.getByTestId("upsell-decline").click();
      await page.waitForURL((url) => url.toString() !== upsell);
    }
    expect(new URL(page.url()).pathname).toBe(`/thankyou/${market}`);
    await page.getByTestId("order-number").waitFor();
  }

  describe.each(markets)("in $market", (m: Market) => {
    const email = (who: string) => `${who}.${m.market}.${kind}@example.com`;

    it("left unticked, is one line paid for the bundle alone", { timeout: 90_000 }, async () => {
      const page = await newVisitor();
      await checkoutFromOffer(page, m.market);
      expect(await page.getByTestId("order-bump").textContent()).toMatch(m.bump);
      expect(await bumpBox(page).isChecked()).toBe(false);
      expect(await page.getByTestId("order-line").count()).toBe(1);
      expect(await page.getByTestId("order-total").textContent()).toMatch(m.bundle);
      expect(await page.getByTestId("place-order").textContent()).toMatch(m.bundle);
      // No add-on, no digital item: the consent is not asked.
      expect(await page.getByTestId("digital-consent").isVisible()).toBe(false);

      await fillContact(page, { email: email("plain"), ...m.contact });
      await payByCard(page, "4242 4242 4242 4242");
      await declineUpsellsToThankYou(page, m.market);
      expect(await page.getByTestId("order-line").count()).toBe(1);
      expect(await page.getByTestId("order-total").textContent()).toMatch(m.bundle);
      await page.context().close();
    });

    it("ticked, adds its price to the summary and the pay button, asks for the digital consent, and is paid in the same payment", { timeout: 90_000 }, async () => {
      const page = await newVisitor();
      // From the split test's variant v2: the report counts its take rate per variant.
      await checkoutFromOffer(page, m.market, "?src=v2");
      await bumpBox(page).check();
      await expect.poll(() => page.getByTestId("order-line").count()).toBe(2);
      expect((await lineTexts(page))[1]).toMatch(m.bump);
      expect(await page.getByTestId("order-total").textContent()).toMatch(m.bumped);
      expect(await page.getByTestId("place-order").textContent()).toMatch(m.bumped);

      await fillContact(page, { email: email("bumped"), ...m.contact });
      await payByCard(page, "4242 4242 4242 4242");
      // Refused in the page: nothing is sent, nothing charged, the box still ticked.
      await page.getByText(m.consentRefused).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/checkout/${m.market}`);
      expect(await bumpBox(page).isChecked()).toBe(true);
      expect(await page.getByTestId("place-order").textContent()).toMatch(m.bumped);

      await page.getByTestId("digital-consent").check();
      await payByCard(page, "4242 4242 4242 4242");
      await declineUpsellsToThankYou(page, m.market);
      expect(await page.getByTestId("order-line").count()).toBe(2);
      const [bundleLine, bumpLine] = await lineTexts(page);
      expect(bundleLine).toMatch(m.bundle);
      expect(bumpLine).toMatch(m.bump);
      expect(await page.getByTestId("order-total").textContent()).toMatch(m.bumped);
      await page.context().close();
    });

    it("is never ticked on a first view, nor on a fresh visit after it was ticked", { timeout: 60_000 }, async () => {
      const page = await newVisitor();
      await checkoutFromOffer(page, m.market);
      expect(await bumpBox(page).isChecked()).toBe(false);
      expect(await page.locator('input[name="bump"]').evaluate((box: HTMLInputElement) => box.defaultChecked)).toBe(false);
      await bumpBox(page).check();
      await expect.poll(() => page.getByTestId("order-line").count()).toBe(2);

      // Back through the offer page, in the same browser.
      await checkoutFromOffer(page, m.market);
      expect(await bumpBox(page).isChecked()).toBe(false);
      expect(await page.getByTestId("order-line").count()).toBe(1);
      expect(await page.getByTestId("place-order").textContent()).toMatch(m.bundle);

      // Another visitor.
      const other = await newVisitor();
      await checkoutFromOffer(other, m.market);
      expect(await bumpBox(other).isChecked()).toBe(false);
      await other.context().close();
      await page.context().close();
    });

    it("with a code, takes its share off both lines and charges the discounted total in one payment", { timeout: 90_000 }, async () => {
      const page = await newVisitor();
      await checkoutFromOffer(page, m.market);
      await fillContact(page, { email: email("coded"), ...m.contact });
      await bumpBox(page).check();
      await page.locator('[name="code"]').fill("bumpten");
      await page.getByTestId("code-apply").click();
      await expect.poll(() => page.getByTestId("discount-line").count()).toBe(1);
      expect(await bumpBox(page).isChecked()).toBe(true);
      expect(await page.getByTestId("discount-line").textContent()).toMatch(m.discount);
      expect(await page.getByTestId("order-total").textContent()).toMatch(m.discounted.total);
      expect(await page.getByTestId("place-order").textContent()).toMatch(m.discounted.total);
      // A code is a reduction at the checkout: the lines keep their prices, the discount line takes it off.
      const [shownBundle, shownBump] = await lineTexts(page);
      expect(shownBundle).toMatch(m.bundle);
      expect(shownBump).toMatch(m.bump);

      await page.getByTestId("digital-consent").check();
      await payByCard(page, "4242 4242 4242 4242");
      await declineUpsellsToThankYou(page, m.market);
      // The thank-you page reads as the checkout did; the order's lines hold their shares (a unit test checks the amounts).
      const [paidBundle, paidBump] = await lineTexts(page);
      expect(paidBundle).toMatch(m.bundle);
      expect(paidBump).toMatch(m.bump);
      expect(await page.getByTestId("discount-line").textContent()).toMatch(m.discount);
      expect(await page.getByTestId("order-total").textContent()).toMatch(m.discounted.total);
      await page.context().close();
    });
  });

  it("after a code, unticked again, pays the bundle alone with the code's share of it", { timeout: 90_000 }, async () => {
    const de = markets[0];
    const page = await newVisitor();
    await checkoutFromOffer(page, "de");
    await fillContact(page, { email: "erst.mit.dann.ohne@example.com", ...de.contact });
    await bumpBox(page).check();
    await page.locator('[name="code"]').fill("BUMPTEN");
    await page.getByTestId("code-apply").click();
    await expect.poll(() => page.getByTestId("discount-line").count()).toBe(1);
    await bumpBox(page).uncheck();
    await expect.poll(() => page.getByTestId("order-line").count()).toBe(1);
    expect(await page.getByTestId("discount-line").textContent()).toMatch(/-8,97\s€/);
    expect(await page.getByTestId("order-total").textContent()).toMatch(de.discounted.bundle);
    expect(await page.getByTestId("place-order").textContent()).toMatch(de.discounted.bundle);
    await payByCard(page, "4242 4242 4242 4242");
    await declineUpsellsToThankYou(page, "de");
    expect(await page.getByTestId("order-line").count()).toBe(1);
    expect(await page.getByTestId("order-total").textContent()).toMatch(de.discounted.bundle);
    await page.context().close();
  });

  it("comes back unticked after a reload, the summary and the pay button with it", { timeout: 60_000 }, async () => {
    const page = await newVisitor();
    await checkoutFromOffer(page, "de");
    await bumpBox(page).check();
    await expect.poll(() => page.getByTestId("order-line").count()).toBe(2);
    await page.reload();
    await page.waitForSelector("html[data-hydrated]");
    // A browser may restore a ticked box on reload: the page must not, nor show a total for it.
    expect(await bumpBox(page).isChecked()).toBe(false);
    expect(await page.getByTestId("order-line").count()).toBe(1);
    expect(await page.getByTestId("place-order").textContent()).toMatch(markets[0].bundle);
    await page.context().close();
  });

  it("refuses on the server a ticked digital add-on without the consent, without JavaScript, and keeps the box ticked", { timeout: 60_000 }, async () => {
    const page = await newVisitor(false);
    await page.goto(`${server.url}/checkout/de?bundle=shape-3`);
    await fillContact(page, { email: "ohne.zustimmung@example.com", ...markets[0].contact });
    await bumpBox(page).check();
    await page.locator('input[name="method"][value="card"]').check();
    await page.locator('[autocomplete="cc-number"]').fill("4242 4242 4242 4242");
    await page.locator('[autocomplete="cc-exp"]').fill("12/30");
    await page.locator('[autocomplete="cc-csc"]').fill("123");
    await Promise.all([page.waitForResponse((response) => response.request().method() === "POST"), page.getByTestId("place-order").click()]);
    await page.waitForLoadState("load");
    expect(new URL(page.url()).pathname).toBe("/checkout/de");
    expect(await page.getByText(markets[0].consentRefused).count()).toBe(1);
    expect(await bumpBox(page).isChecked()).toBe(true);
    expect(await page.getByTestId("place-order").textContent()).toMatch(markets[0].bumped);
    await page.context().close();
  });

  it("shows the operator the bump take rate in the funnel report, of the paid orders, in all and per variant", { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await logIn(page, server.url, "owner@example.com", ownerPassword);
    const day = new Date().toISOString().slice(0, 10);
    await page.goto(`${server.url}/admin/report?from=${day}&to=${day}&test=1`);
    // Per market: one order without the add-on, one with it, one with it and a code; then one in
    // Germany with a code and the add-on unticked again. The refused tries are not orders.
    const paid = 3 * markets.length + 1;
    const bumped = 2 * markets.length;
    const row = page.getByTestId("bump-take-rate");
    expect((await row.textContent())?.replace(/\s+/g, " ")).toContain(`${bumped} of ${paid}`);
    expect(await row.textContent()).toContain(`${((100 * bumped) / paid).toFixed(1)}%`);

    // Filtered to the variant v2, whose only orders took the add-on.
    await page.goto(`${server.url}/admin/report?from=${day}&to=${day}&test=1&src=v2`);
    expect((await page.getByTestId("bump-take-rate").textContent())?.replace(/\s+/g, " ")).toContain(`${markets.length} of ${markets.length}`);
    expect(await page.getByTestId("bump-take-rate").textContent()).toContain("100.0%");
    await page.close();
  });
});
