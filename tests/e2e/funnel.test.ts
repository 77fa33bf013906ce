import { describe, expect, inject, it } from "vitest";
import { openHydrated, openPageSession } from "./support/chromium";

const baseUrl = inject("baseUrl");
const session = openPageSession({ width: 390, height: 844 });
const page = () => session.page;

/** The quiz's progress right now, without waiting for it (it disappears when the quiz ends). */
const progressValue = () => page().evaluate(() => document.querySelector("progress")?.getAttribute("value") ?? null);

/** Answers every question of the quiz on screen: first option, or a number inside each field's range. */
async function answerQuiz(): Promise<number> {
  let answered = 0;
  while ((await page().getByTestId("quiz-next").count()) > 0 && answered < 20) {
    const inputs = page().getByTestId("quiz-input");
    const fields = await inputs.count();
    if (fields > 0) {
      for (let index = 0; index < fields; index += 1) {
        const min = Number(await inputs.nth(index).getAttribute("min"));
        await inputs.nth(index).fill(String(min + 1), { timeout: 8000 });
      }
    } else {
      await page().getByTestId("quiz-option").first().click({ timeout: 8000 });
    }
    const step = await progressValue();
    await page().getByTestId("quiz-next").click({ timeout: 8000 });
    answered += 1;
    // The next question is on screen, or the quiz has finished and left for the summary.
    await expect.poll(async () => (await progressValue()) !== step).toBe(true);
  }
  return answered;
}

const routeOf = () => page().locator("html").getAttribute("data-route");

describe("every quiz variant", () => {
  it.each([
    ["/v1/fr", "/summary/fr?utm_source=t&src=v1", "offer2"],
    ["/v2/de", "/summary/de?utm_source=t&src=v2", "offer2-2"],
    ["/v3/gb", "/summary/gb?utm_source=t&src=v3", "get2"],
    ["/v31/se", "/summary/se?utm_source=t&src=v31", "1get-2"],
    ["/v4/dk", "/summary/dk?utm_source=t&src=v4", "offerV4-2"],
    ["/v5/fi", "/summary/fi?utm_source=t&src=v5", "offer2"],
    ["/v6/ch", "/summary/ch?utm_source=t&src=v6", "6offer-2"],
    ["/v7/ch-fr", "/summary/ch-fr?utm_source=t&src=v7", "offerV7-2"],
    ["/v9/es", "/summary/es?utm_source=t&src=v9", "offerrecom-2"],
    ["/v10/it", "/summary/it?utm_source=t&src=v10", "lionoffer-2"],
    ["/vsalt/at", "/summary/at?utm_source=t&src=vsalt", "offersalt-2"],
    ["/v1ip/be", "/v1ip-summary/be?utm_source=t&src=v1ip", "offerip-2"],
    ["/v2", "/summary?utm_source=t&src=v2", "offer2-2"],
  ])("%s leads to its summary %s and on to %s", async (start, summary, offerRoute) => {
    await openHydrated(page(), `${baseUrl}${start}?utm_source=t`);
    expect(await answerQuiz()).toBeGreaterThanOrEqual(3);
    await page().waitForURL(baseUrl + summary, { timeout: 8000 });
    await expect.poll(() => page().getByTestId("summary-result").locator("h2").count()).toBe(1);
    await page().getByTestId("order-now").click({ timeout: 8000 });
    await expect.poll(routeOf, { timeout: 8000 }).toBe(offerRoute);
    expect(page().url()).toContain("utm_source=t");
  });
});

describe("quiz behaviour", () => {
  it("refuses an out-of-range number next to the field, keeps it, and keeps answers over a reload", async () => {
    await openHydrated(page(), `${baseUrl}/v2/it`);
    await page().getByTestId("quiz-option").nth(1).click();
    await page().getByTestId("quiz-next").click();
    await page().getByTestId("quiz-option").first().click();
    await page().getByTestId("quiz-next").click();
    const age = page().getByTestId("quiz-input");
    await age.fill("12");
    await page().getByTestId("quiz-next").click();
    await expect.poll(() => page().getByRole("alert").textContent()).toMatch(/18.*99/);
    expect(await age.getAttribute("aria-invalid")).toBe("true");
    expect(await age.inputValue()).toBe("12");

    await page().reload();
    await page().waitForSelector("html[data-hydrated]");
    await expect.poll(() => page().getByTestId("quiz-input").count()).toBe(1);
    await page().getByRole("button", { name: /Indietro/ }).click();
    await page().getByRole("button", { name: /Indietro/ }).click();
    expect(await page().getByTestId("quiz-option").nth(1).locator("input").isChecked()).toBe(true);
  });

  it("can be answered with the keyboard alone", async () => {
    await openHydrated(page(), `${baseUrl}/v2/gb`);
    await page().getByTestId("quiz-option").first().locator("input").focus();
    await page().keyboard.press("ArrowDown");
    await page().keyboard.press("Enter");
    await expect.poll(() => page().locator("progress").getAttribute("value")).toBe("2");
  });

  it("ignores tampered stored answers", async () => {
    await openHydrated(page(), `${baseUrl}/v2/fr`);
    await page().evaluate(() => sessionStorage.setItem("vitanor:quiz:v2", '{"answers":{"goal":"<img src=x>"},"step":7}'));
    await page().reload();
    await page().waitForSelector("html[data-hydrated]");
    expect(await page().locator("progress").getAttribute("value")).toBe("1");
  });
});

describe("offer, upsells and thank-you", () => {
  it.each(["fr", "gb"])("in the %s market, the bundle buttons choose and lead to the checkout; without an order, upsells offer the checkout and lead on", async (market) => {
    await openHydrated(page(), `${baseUrl}/offer/${market}?utm_campaign=c1`);
    const choose = page().getByTestId("product-card").nth(1).getByRole("link");
    expect(await choose.textContent()).not.toMatch(/\d/);
    await choose.click();
    await page().waitForURL(`${baseUrl}/checkout/${market}?bundle=shape-3&utm_campaign=c1`);
    await openHydrated(page(), `${baseUrl}/upsell/${market}?utm_campaign=c1`);
    // Nothing to charge without an order: no pay button, only a way to the checkout.
    expect(await page().getByTestId("upsell-accept").count()).toBe(0);
    expect(await page().getByTestId("upsell-choose").getAttribute("href")).toBe(`/checkout/${market}?bundle=ebook-1&utm_campaign=c1`);
    await page().getByTestId("upsell-decline").click();
    await page().waitForURL(`${baseUrl}/upsellMind/${market}?utm_campaign=c1`);
    await page().getByTestId("upsell-decline").click();
    await page().waitForURL(`${baseUrl}/thankyou/${market}?utm_campaign=c1`);
    expect(await page().getByTestId("order-number").count()).toBe(0);
  });

  it("confirms a PayPal payment and leads back to the named step", async () => {
    await openHydrated(page(), `${baseUrl}/paypal-confirm/upsellMind-2?utm_source=pp`);
    expect(await page().getByTestId("payment-return-continue").getAttribute("href")).toBe("/upsellMind/de?utm_source=pp");
    await openHydrated(page(), `${baseUrl}/paypal-confirm/nowhere`);
    expect(await page().getByTestId("payment-return-continue").getAttribute("href")).toBe("/thankyou");
  });
});

describe("forms", () => {
  it("show errors next to the fields in the browser and keep what was typed", async () => {
    await openHydrated(page(), `${baseUrl}/refund/gb`);
    await page().getByLabel("Order number").fill("12345");
    await page().getByLabel("E-mail").fill("anna@example.com");
    await page().getByRole("button", { name: /send|submit|request/i }).click();
    await expect.poll(() => page().getByRole("alert").count()).toBe(2);
    expect(await page().getByLabel("Order number").getAttribute("aria-invalid")).toBe("true");
    expect(await page().getByLabel("Order number").inputValue()).toBe("12345");
    await page().getByLabel("Order number").fill("VN-7K3M-Q9TX");
    await page().getByLabel(/reason/i).selectOption("withdrawal");
    await page().getByRole("button", { name: /send|submit|request/i }).click();
    await page().getByTestId("form-success").waitFor();
  });

  it("are checked on the server too, keeping the values", async () => {
    const body = new URLSearchParams({ orderNumber: "VN-1", email: "x", reason: "nope", message: "Hello" });
    const response = await fetch(`${baseUrl}/refund/fr`, { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html.match(/role="alert"/g)?.length).toBe(3);
    expect(html).toContain('value="VN-1"');
    expect(html).toContain(">Hello</textarea>");
    const feedback = await fetch(`${baseUrl}/feedback/de`, { method: "POST", body: new URLSearchParams({ rating: "5", comment: "Schnelle Lieferung" }) });
    expect(feedback.status).toBe(200);
    expect(await feedback.text()).toContain('data-testid="form-success"');
  });
});
