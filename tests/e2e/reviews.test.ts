import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "./support/axe";
import { addOperator, logIn } from "./support/back-office";
import { fillContact, payByCard } from "./support/buyer";
import { launchChromium, openHydrated } from "./support/chromium";
import { mailFiles, readable } from "./support/mail-files";
import { startServer, type RunningServer } from "./support/server";

/**
 * A verified buyer's review from end to end: an order placed in the browser, fulfilled in the back
 * office, the invitation e-mail and its single-use link, the review written (with bad input first),
 * published by an operator, and shown on the offer page in the buyer's language only.
 */

const password = "owner password 1234";
const buyer = { email: "jonas.weber@example.com", givenName: "Jonas", familyName: "Weber", addressLine1: "Lindenallee 3", postalCode: "50667", city: "Köln" };
const reviewText = "Nehme sie seit drei Wochen vor dem Mittagessen. <b>Einfach</b> zu schlucken – & die Packung reicht lange.";

describe("verified-buyer reviews", () => {
  let dataDir: string;
  let server: RunningServer;
  let browser: Browser;
  let orderNumber = "";
  let reviewLink = "";

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "storefront-reviews-"));
    const env = { DATA_DIR: dataDir, REVIEW_INVITATION_DELAY_DAYS: "0" };
    const added = addOperator(env, "owner@example.com", "owner", password);
    expect(added.status, added.stderr).toBe(0);
    server = await startServer(env);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function newPage(width = 1280): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
    return context.newPage();
  }

  async function invitationMails(): Promise<string[]> {
    const texts = (await mailFiles(dataDir)).map(readable);
    return texts.filter((text) => text.includes(`To: ${buyer.email}`) && text.includes("/review/de?invitation="));
  }

  it("invites the buyer by e-mail once the order is fulfilled, with one link for the product", { timeout: 120_000 }, async () => {
    const page = await newPage(390);
    await openHydrated(page, `${server.url}/checkout/de?bundle=shape-3`);
    await fillContact(page, buyer);
    await payByCard(page, "4242 4242 4242 4242");
    await page.waitForURL(/\/upsell\/de/);
    await page.getByTestId("upsell-decline").click();
    await page.waitForURL(/\/upsellMind\/de/);
    await page.getByTestId("upsell-decline").click();
    await page.waitForURL(/\/thankyou\/de/);
    orderNumber = (await page.getByTestId("order-number").textContent()) ?? "";
    expect(orderNumber).toMatch(/^VN-/);
    expect(await invitationMails()).toEqual([]);

    const admin = await newPage();
    await logIn(admin, server.url, "owner@example.com", password);
    await admin.waitForURL(`${server.url}/admin/orders`);
    await admin.goto(`${server.url}/admin/orders/${orderNumber}`);
    await admin.locator('input[name="trackingNumber"]').fill("00340434161234567890");
    await admin.getByTestId("admin-record-shipment").click();
    await admin.waitForURL(/done=shipment_recorded/);
    await admin.context().close();

    await expect.poll(async () => (await invitationMails()).length, { timeout: 20_000 }).toBe(1);
    const [mail = ""] = await invitationMails();
    expect(mail).toContain("Hallo Jonas,");
    expect(mail).toContain("Vitanor Shape bewerten");
    const links = [...new Set([...mail.matchAll(/https?:\/\/[^\s"<>]+\/review\/de\?invitation=[^\s"<>]+/g)].map((match) => match[0].replace(/&amp;/g, "&")))];
    expect(links).toHaveLength(1);
    reviewLink = new URL(links[0] ?? "").pathname + new URL(links[0] ?? "").search;
    await page.context().close();
  });

  it("takes the review once, refusing empty input in German, and explains a used or altered link", { timeout: 60_000 }, async () => {
    const page = await newPage(390);
    await openHydrated(page, `${server.url}${reviewLink}`);
    expect(await page.locator("h1").textContent()).toBe("Ihre Bewertung für Vitanor Shape");
    expect(await page.textContent("body")).toContain("Ihre Bewertung erscheint als „Jonas W.“");
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Bewertung senden" }).click();
    expect(await page.locator(".field-error").allTextContents()).toEqual(["Bitte wählen Sie 1 bis 5 Sterne.", "Bitte schreiben Sie ein paar Worte zum Produkt (höchstens 2.000 Zeichen)."]);

    // The server refuses what the browser would not send: an overlong text, and no rating.
    const overlong = await page.request.post(`${server.url}${reviewLink}`, {
      form: { invitation: new URL(reviewLink, server.url).searchParams.get("invitation") ?? "", rating: "4", body: "x".repeat(2001) },
      headers: { Origin: server.url },
    });
    expect(overlong.status()).toBe(400);

    await page.getByLabel("4 Sterne – sehr gut").check();
    await page.locator('textarea[name="body"]').fill(reviewText);
    await page.getByRole("button", { name: "Bewertung senden" }).click();
    await expect.poll(() => page.getByTestId("form-success").count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByTestId("form-success").textContent()).toContain("Vielen Dank für Ihre Bewertung");

    await openHydrated(page, `${server.url}${reviewLink}`);
    expect(await page.getByTestId("review-link-closed").getAttribute("data-state")).toBe("used");
    expect(await page.locator("h1").textContent()).toBe("Sie haben dieses Produkt bereits bewertet");
    const altered = reviewLink.replace(/.(?=$)/, (last) => (last === "A" ? "B" : "A"));
    const response = await page.goto(`${server.url}${altered}`);
    expect(response?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Dieser Bewertungslink funktioniert nicht");
    await page.context().close();
  });

  it("shows nothing until an operator publishes the review; then the offer page shows it verified, in German only", { timeout: 60_000 }, async () => {
    const page = await newPage();
    await openHydrated(page, `${server.url}/offer/de`);
    await page.waitForLoadState("load");
    await page.waitForTimeout(500);
    expect(await page.getByTestId("product-reviews").count()).toBe(0);

    await logIn(page, server.url, "owner@example.com", password);
    await page.waitForURL(`${server.url}/admin/orders`);
    await page.getByRole("link", { name: "Reviews" }).click();
    const row = page.getByTestId("admin-review");
    expect(await row.count()).toBe(1);
    // The operator reads the words as written: markup shows as text.
    expect(await row.locator(".review-text").textContent()).toBe(reviewText);
    expect(await row.textContent()).toContain(orderNumber);
    expect(await seriousViolations(page)).toEqual([]);
    await row.getByRole("button", { name: "Reject" }).click();
    // No rule chosen: the browser asks for one, nothing is sent.
    expect(await page.getByTestId("admin-review").count()).toBe(1);
    await row.getByRole("button", { name: "Publish" }).click();
    expect(await page.getByRole("status").textContent()).toContain("Review published");

    await openHydrated(page, `${server.url}/offer/de`);
    const section = page.getByTestId("product-reviews");
    await section.waitFor({ timeout: 15_000 });
    expect(await section.locator("h2").textContent()).toBe("Bewertungen verifizierter Käufer");
    expect(await page.getByTestId("reviews-summary").textContent()).toContain("4,0");
    expect(await page.getByTestId("reviews-summary").textContent()).toContain("aus 1 Bewertung");
    const review = page.getByTestId("review");
    expect(await review.locator("blockquote").textContent()).toBe(reviewText);
    expect(await review.locator("b").count()).toBe(0);
    expect(await review.textContent()).toContain("Jonas W.");
    expect(await review.textContent()).toContain("Verifizierter Kauf");
    expect(await review.getByRole("img").getAttribute("aria-label")).toBe("4 von 5 Sternen");
    expect(await seriousViolations(page)).toEqual([]);
    await section.getByRole("link", { name: "So prüfen wir Bewertungen" }).click();
    await page.waitForURL(/\/review-policy\/de$/);
    expect(await page.locator("h1").textContent()).toBe("So prüfen wir Bewertungen");

    // The landing page sums up every published review in the visitor's language.
    await openHydrated(page, `${server.url}/at`);
    const summary = page.getByTestId("rating-summary");
    await expect.poll(() => summary.getByRole("link").count(), { timeout: 15_000 }).toBe(1);
    expect(await summary.getByRole("link").textContent()).toBe("4,0 von 5 aus 1 verifizierten Bewertung");
    expect(await summary.getByRole("link").getAttribute("href")).toBe("/review-policy/at");

    // A French visitor reads French reviews: there are none yet, so there is no section and no summary.
    await openHydrated(page, `${server.url}/offer/fr`);
    await page.waitForLoadState("load");
    await page.waitForTimeout(1000);
    expect(await page.getByTestId("product-reviews").count()).toBe(0);
    await openHydrated(page, `${server.url}/fr`);
    await page.waitForLoadState("load");
    await page.waitForTimeout(1000);
    expect(await page.getByTestId("rating-summary").textContent()).toBe("");
    await page.context().close();
  });
});
