import { describe, expect, inject, it } from "vitest";
import { fillContact, mailsFor, openCheckout, payByCard } from "./support/buyer";
import { openHydrated, openPageSession } from "./support/chromium";

const baseUrl = inject("baseUrl");
const session = openPageSession({ width: 390, height: 844 });
const page = () => session.page;

/** Pays the checkout (3 boxes, 89,70 €) and arrives on the first upsell. */
async function paidOrder(card = "4242 4242 4242 4242"): Promise<void> {
  await openCheckout(page());
  await fillContact(page());
  await payByCard(page(), card);
  if (card.endsWith("3184") || card.endsWith("3155")) {
    await page().waitForURL(/\/test-gateway\/authenticate\//);
    await page().getByTestId("gateway-approve").click();
  }
  await page().waitForURL(/\/upsell\/fr\?src=v2$/);
  await page().waitForSelector("html[data-hydrated]");
}

async function acceptDigital(): Promise<void> {
  await page().getByTestId("digital-consent").check();
  await page().getByTestId("upsell-accept").click();
}

async function thankYouLines(): Promise<string[]> {
  await openHydrated(page(), `${baseUrl}/thankyou/fr`);
  return page().getByTestId("order-line").allTextContents();
}

describe("one-click upsells", () => {
  it("adds each accepted upsell to the same order, with one confirmation e-mail listing everything", { timeout: 60_000 }, async () => {
    await paidOrder();
    expect(await page().getByTestId("upsell-accept").textContent()).toMatch(/9,90\s€/);
    // A digital item needs the consent box first; without it nothing is charged.
    await page().getByTestId("upsell-accept").click();
    await page().getByTestId("upsell-error").waitFor();
    expect(page().url()).toMatch(/\/upsell\/fr\?src=v2$/);
    await acceptDigital();
    await page().waitForURL(/\/upsellMind\/fr\?src=v2$/);
    await page().waitForSelector("html[data-hydrated]");
    await acceptDigital();
    await page().waitForURL(/\/thankyou\/fr\?src=v2$/);
    await expect.poll(() => page().getByTestId("order-line").count()).toBe(3);
    const number = (await page().getByTestId("order-number").textContent()) ?? "";
    expect(await page().getByTestId("order-total").textContent()).toMatch(/124,50\s€/);
    await expect.poll(async () => (await mailsFor(number)).length, { timeout: 15_000 }).toBe(1);
    const [mail = ""] = await mailsFor(number);
    const names = await page().locator(".order-summary__name").allTextContents();
    expect(names).toHaveLength(3);
    for (const name of names) expect(mail).toContain(name);
    expect(mail).toMatch(/124,50\s€/);
  });

  it("charges once for a double click and shows the upsell as added after the back button", { timeout: 60_000 }, async () => {
    await paidOrder();
    await page().getByTestId("digital-consent").check();
    await page().getByTestId("upsell-accept").dblclick();
    await page().waitForURL(/\/upsellMind\/fr/);
    await page().goBack();
    await page().waitForURL(/\/upsell\/fr/);
    await page().reload();
    expect(await page().getByTestId("upsell-accept").count()).toBe(0);
    await page().getByTestId("upsell-continue").waitFor();
    // A replayed acceptance from the same browser leads on without a second line.
    const replay = await page().request.post(`${baseUrl}/upsell/fr?src=v2`, { form: { intent: "accept", digitalConsent: "yes" }, maxRedirects: 0 });
    expect(replay.status()).toBe(303);
    expect((await thankYouLines()).filter((line) => line.includes("9,90")).length).toBe(1);
  });

  it("asks for authentication again on card 3184 while the buyer is on the page", { timeout: 60_000 }, async () => {
    await paidOrder("4000 0027 6000 3184");
    await acceptDigital();
    await page().waitForURL(/\/test-gateway\/authenticate\//);
    // The gateway's page may still be arriving when its address is already shown.
    await expect.poll(async () => (await page().locator("dd").allTextContents()).some((text) => /9,90\s€/.test(text)), { timeout: 10_000 }).toBe(true);
    await page().getByTestId("gateway-approve").click();
    await page().waitForURL(/\/upsellMind\/fr\?src=v2$/);
    expect(await thankYouLines()).toHaveLength(2);
  });

  it("leaves the paid order untouched when the upsell's authentication is refused, and says so", { timeout: 60_000 }, async () => {
    await paidOrder("4000 0027 6000 3184");
    await acceptDigital();
    await page().waitForURL(/\/test-gateway\/authenticate\//);
    await page().getByTestId("gateway-decline").click();
    await page().waitForURL(/\/upsell\/fr\?src=v2$/);
    await page().getByTestId("upsell-error").waitFor();
    await page().getByTestId("upsell-decline").click();
    await page().waitForURL(/\/upsellMind\/fr/);
    const lines = await thankYouLines();
    expect(lines).toHaveLength(1);
    expect(await page().getByTestId("order-total").textContent()).toMatch(/89,70\s€/);
  });

  it("opens a short bank payment for an upsell when the method cannot be charged again", { timeout: 60_000 }, async () => {
    await openCheckout(page());
    await fillContact(page());
    await page().locator('input[name="method"][value="bank"]').check();
    await page().getByTestId("place-order").click();
    await page().waitForURL(/\/test-gateway\/bank\//);
    await page().getByTestId("gateway-approve").click();
    await page().waitForURL(/\/upsell\/fr/);
    // A physical upsell: it ships in the same parcel.
    await openHydrated(page(), `${baseUrl}/upsellfat/fr?src=v2`);
    await page().getByTestId("upsell-accept").click();
    await page().waitForURL(/\/test-gateway\/bank\//);
    await page().getByTestId("gateway-approve").click();
    await page().waitForURL(/\/thankyou\/fr\?src=v2$/);
    await expect.poll(() => page().getByTestId("order-line").count()).toBe(2);
    expect(await page().getByTestId("order-total").textContent()).toMatch(/109,60\s€/);
  });

  it("refuses an acceptance without a paid order, changing nothing", async () => {
    const response = await fetch(`${baseUrl}/upsell/fr`, {
      method: "POST",
      body: new URLSearchParams({ intent: "accept", digitalConsent: "yes" }),
      redirect: "manual",
    });
    expect(response.status).toBe(409);
  });
});
