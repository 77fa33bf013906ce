import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCode } from "../../app/codes/codes.server";
import { openDatabase } from "../../app/db/database.server";
import { buyer, fillContact, payByCard } from "./support/buyer";
import { launchChromium, openHydrated } from "./support/chromium";
import { createPostgresDatabase, databaseKinds } from "./support/postgres";
import { startServer, type RunningServer } from "./support/server";
import { codeTerms } from "../../app/test-support/code-terms";


/** A buyer in France types a code at the checkout: 3 boxes of Shape for 89,70 €, 10 % off is 80,73 €. */
describe.each(databaseKinds)("a code at the checkout on %s", (kind) => {
  let dataDir: string;
  let server: RunningServer;
  let browser: Browser;
  let database: { url: string; drop(): Promise<void> } | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "storefront-codes-"));
    database = kind === "postgres" ? await createPostgresDatabase("codes_checkout") : undefined;
    // The embedded database allows one process at a time: the codes are stored before the server starts.
    const seeded = await openDatabase(database ? { url: database.url } : { dataDir });
    try {
      await createCode(seeded.db, codeTerms("TENOFF"));
      await createCode(seeded.db, codeTerms("LONGGONE", { validUntil: new Date("2020-01-01T00:00:00Z") }));
      await createCode(seeded.db, codeTerms("BIGBASKET", { minimumMinor: { EUR: 20000 } }));
      await createCode(seeded.db, codeTerms("LASTONE", { maxRedemptions: 1 }));
    } finally {
      await seeded.close();
    }
    server = await startServer({ DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function newPage(javaScriptEnabled = true): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled });
    return context.newPage();
  }

  /** Without scripts the button sends the form as a browser does: the page that answers replaces this one. */
  async function sendWithoutScript(page: Page, button: string): Promise<void> {
    await Promise.all([page.waitForResponse((response) => response.request().method() === "POST"), page.getByTestId(button).click()]);
    await page.waitForLoadState("load");
  }

  async function checkoutFromOffer(page: Page): Promise<void> {
    await openHydrated(page, `${server.url}/offer/fr?src=v2`);
    await page.getByTestId("product-card").nth(1).getByRole("link").click();
    await page.waitForURL(`${server.url}/checkout/fr?bundle=shape-3&src=v2`);
    await page.waitForSelector("html[data-hydrated]");
  }

  it("takes 10 % off with a code, shows it in the summary and on the pay button, and charges the discounted total", { timeout: 90_000 }, async () => {
    const page = await newPage();
    await checkoutFromOffer(page);
    await fillContact(page, buyer);
    await page.locator('[name="code"]').fill("tenoff");
    await page.getByTestId("code-apply").click();
    await expect.poll(() => page.getByTestId("discount-line").count()).toBe(1);
    expect(await page.getByTestId("discount-line").textContent()).toMatch(/TENOFF.*-8,97\s€/);
    expect(await page.getByTestId("order-total").textContent()).toMatch(/80,73\s€/);
    expect(await page.getByTestId("place-order").textContent()).toMatch(/80,73\s€/);
    expect(await page.locator('[name="city"]').inputValue()).toBe("Paris");

    await page.locator('input[name="method"][value="card"]').check();
    await page.locator('[autocomplete="cc-number"]').fill("4242 4242 4242 4242");
    await page.locator('[autocomplete="cc-exp"]').fill("12/30");
    await page.locator('[autocomplete="cc-csc"]').fill("123");
    await page.getByTestId("place-order").click();
    await page.waitForURL(/\/upsell\/fr/);
    await page.getByTestId("upsell-decline").click();
    await page.waitForURL(/\/upsellMind\/fr/);
    await page.getByTestId("upsell-decline").click();
    await page.waitForURL(/\/thankyou\/fr/);
    // The thank-you page reads as the checkout did: the line before the code, the code's line, the total paid.
    expect(await page.getByTestId("order-line").textContent()).toMatch(/89,70\s€/);
    expect(await page.getByTestId("discount-line").textContent()).toMatch(/TENOFF.*-8,97\s€/);
    expect(await page.getByTestId("order-total").textContent()).toMatch(/80,73\s€/);
    await page.context().close();
  });

  it("applies the code, and places no order, when Enter is pressed in the code field", { timeout: 90_000 }, async () => {
    const page = await newPage();
    await checkoutFromOffer(page);
    // Everything a payment needs is filled in: were Enter to press the pay button, the order would be placed.
    await fillContact(page, { ...buyer, email: "enter.key@example.com" });
    await page.locator('input[name="method"][value="card"]').check();
    await page.locator('[autocomplete="cc-number"]').fill("4242 4242 4242 4242");
    await page.locator('[autocomplete="cc-exp"]').fill("12/30");
    await page.locator('[autocomplete="cc-csc"]').fill("123");
    await page.locator('[name="code"]').fill("tenoff");
    await page.locator('[name="code"]').press("Enter");
    await expect.poll(() => page.getByTestId("discount-line").count()).toBe(1);
    expect(await page.getByTestId("place-order").textContent()).toMatch(/80,73\s€/);
    await page.waitForLoadState("networkidle");
    expect(page.url()).toContain("/checkout/fr");
    expect(await page.getByTestId("checkout-error").count()).toBe(0);
    await page.context().close();
  });

  it.each([
    ["NOSUCHCODE", /n'existe pas/],
    ["LONGGONE", /expiré/],
    ["BIGBASKET", /200,00\s€/],
  ])("refuses %s and says why, the total unchanged", async (code, reason) => {
    const page = await newPage();
    await checkoutFromOffer(page);
    await page.locator('[name="code"]').fill(code);
    await page.getByTestId("code-apply").click();
    await expect.poll(() => page.getByTestId("code-error").count()).toBe(1);
    expect(await page.getByTestId("code-error").textContent()).toMatch(reason);
    expect(await page.getByTestId("discount-line").count()).toBe(0);
    expect(await page.getByTestId("place-order").textContent()).toMatch(/89,70\s€/);
    await page.context().close();
  });

  it("tells a buyer whose code was taken between applying and paying, shows the new total and charges nothing", { timeout: 90_000 }, async () => {
    const slow = await newPage();
    await checkoutFromOffer(slow);
    await fillContact(slow, { ...buyer, email: "slow.buyer@example.com" });
    await slow.locator('[name="code"]').fill("LASTONE");
    await slow.getByTestId("code-apply").click();
    await expect.poll(() => slow.getByTestId("discount-line").count()).toBe(1);

    const quick = await newPage();
    await checkoutFromOffer(quick);
    await fillContact(quick, { ...buyer, email: "quick.buyer@example.com" });
    await quick.locator('[name="code"]').fill("LASTONE");
    await quick.getByTestId("code-apply").click();
    await expect.poll(() => quick.getByTestId("discount-line").count()).toBe(1);
    await payByCard(quick, "4242 4242 4242 4242");
    await quick.waitForURL(/\/upsell\/fr/);

    await payByCard(slow, "4242 4242 4242 4242");
    await expect.poll(() => slow.getByTestId("checkout-error").count()).toBe(1);
    expect(await slow.getByTestId("checkout-error").textContent()).toMatch(/ne peut plus être utilisé.*déjà été utilisé/);
    expect(slow.url()).toContain("/checkout/fr");
    expect(await slow.getByTestId("discount-line").count()).toBe(0);
    expect(await slow.getByTestId("place-order").textContent()).toMatch(/89,70\s€/);
    // Paying again now pays the full price the page shows.
    await payByCard(slow, "4242 4242 4242 4242");
    await slow.waitForURL(/\/upsell\/fr/);
    await quick.context().close();
    await slow.context().close();
  });

  it("applies and removes a code without JavaScript, keeping every typed field", async () => {
    const page = await newPage(false);
    await page.goto(`${server.url}/checkout/fr?bundle=shape-3&src=v2`);
    // Another buyer: the first test's buyer has used this once-per-customer code.
    const other = { ...buyer, email: "louise.martin@example.com" };
    await fillContact(page, other);
    await page.locator('[name="code"]').fill("TENOFF");
    await sendWithoutScript(page, "code-apply");
    await page.waitForSelector('[data-testid="discount-line"]');
    expect(await page.getByTestId("place-order").textContent()).toMatch(/80,73\s€/);
    for (const [field, value] of Object.entries(other)) expect(await page.locator(`[name="${field}"]`).inputValue(), field).toBe(value);
    await sendWithoutScript(page, "code-remove");
    await page.waitForSelector('[data-testid="code-apply"]');
    expect(await page.getByTestId("discount-line").count()).toBe(0);
    expect(await page.getByTestId("place-order").textContent()).toMatch(/89,70\s€/);
    expect(await page.locator('[name="email"]').inputValue()).toBe(other.email);

    // The first buyer has had it: once per customer.
    await page.locator('[name="email"]').fill(buyer.email);
    await page.locator('[name="code"]').fill("TENOFF");
    await sendWithoutScript(page, "code-apply");
    expect(await page.getByTestId("code-error").textContent()).toMatch(/déjà été utilisé/);
    await page.context().close();
  });
});
