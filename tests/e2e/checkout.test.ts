import { beforeAll, describe, expect, inject, it } from "vitest";
import { buyer, fillContact as fillContactOf, mailsFor, openCheckout as openCheckoutOf, payByCard as payByCardOf } from "./support/buyer";
import { openHydrated, openPageSession } from "./support/chromium";
import { freshRateWindow } from "./support/rate-window";

const baseUrl = inject("baseUrl");
const session = openPageSession({ width: 390, height: 844 });
const page = () => session.page;
const openCheckout = (market?: string, query?: string) => openCheckoutOf(page(), market, query);
const fillContact = (target = page(), values = buyer) => fillContactOf(target, values);
const payByCard = (number: string) => payByCardOf(page(), number);

describe("checkout", () => {
  it("shows the summary, standard autocomplete tokens, the test-mode notice and a pay button with the total", async () => {
    await openCheckout();
    expect(await page().getByTestId("test-mode").isVisible()).toBe(true);
    expect(await page().getByTestId("order-line").count()).toBe(1);
    const total = (await page().getByTestId("order-total").textContent()) ?? "";
    expect(total).toMatch(/89,70\s€/);
    expect(await page().getByTestId("place-order").textContent()).toContain(total.trim());
    for (const token of ["email", "given-name", "family-name", "address-line1", "address-line2", "postal-code", "address-level2", "country", "tel"]) {
      expect(await page().locator(`[autocomplete="${token}"]`).count(), token).toBe(1);
    }
  });

  it("answers an unknown bundle with a clear 404 and a way back to the offer", async () => {
    const response = await page().goto(`${baseUrl}/checkout/fr?bundle=nothing-9`);
    expect(response?.status()).toBe(404);
    expect(await page().getByTestId("checkout-error").isVisible()).toBe(true);
  });

  it("refuses bad fields in the page, in the page's language, and keeps what was typed", async () => {
    await openCheckout("de", "bundle=shape-1");
    await fillContact(page(), { ...buyer, postalCode: "1234" });
    await page().getByTestId("place-order").click();
    expect(await page().locator("#field-postalCode-error").textContent()).toContain("Postleitzahl");
    expect(await page().locator('[name="email"]').inputValue()).toBe(buyer.email);
  });

  it("takes a card payment, leads through the upsells to the real order, and sends one confirmation e-mail", { timeout: 60_000 }, async () => {
    await openCheckout();
    await fillContact();
    await payByCard("4242 4242 4242 4242");
    await page().waitForURL(`${baseUrl}/upsell/fr?src=v2`);
    expect(await page().getByTestId("test-mode").isVisible()).toBe(true);
    await page().getByTestId("upsell-decline").click();
    await page().waitForURL(/\/upsellMind\/fr/);
    await page().getByTestId("upsell-decline").click();
    await page().waitForURL(`${baseUrl}/thankyou/fr?src=v2`);
    const number = (await page().getByTestId("order-number").textContent()) ?? "";
    expect(number).toMatch(/^VN-[2-9A-Z]{4}-[2-9A-Z]{4}$/);
    expect(await page().getByTestId("order-line").count()).toBe(1);
    expect(await page().getByTestId("order-total").textContent()).toMatch(/89,70/);
    expect(await page().locator(".order-address").textContent()).toContain("75002 Paris");
    await expect.poll(async () => (await mailsFor(number)).length, { timeout: 15_000 }).toBe(1);
    const [mail = ""] = await mailsFor(number);
    expect(mail).toContain("/withdraw/fr");
    expect(mail).toContain("To: anna.muster@example.com");
    expect(page().url()).not.toContain("anna");
  });

  it("keeps every field but the card after a decline, and says why", async () => {
    await openCheckout();
    await fillContact();
    await payByCard("4000 0000 0000 0002");
    await expect.poll(() => page().getByTestId("checkout-error").count()).toBe(1);
    expect(await page().getByTestId("checkout-error").textContent()).toMatch(/refusée|refusé/);
    expect(await page().locator('[name="city"]').inputValue()).toBe("Paris");
    expect(await page().locator('[autocomplete="cc-number"]').inputValue()).toBe("");
    await payByCard("4000 0000 0000 9995");
    await expect.poll(async () => (await page().getByTestId("checkout-error").textContent()) ?? "").toMatch(/insuffisant/i);
    await payByCard("4242 4242 4242 4242");
    await page().waitForURL(/\/upsell\/fr/);
  });

  it.each([
    ["approved", "gateway-approve"],
    ["refused", "gateway-decline"],
  ])("asks for authentication on card 3155 and continues when it is %s", async (how, button) => {
    await openCheckout();
    await fillContact();
    await payByCard("4000 0025 0000 3155");
    await page().waitForURL(/\/test-gateway\/authenticate\//);
    await page().getByTestId(button).click();
    if (how === "approved") {
      await page().waitForURL(/\/upsell\/fr/);
    } else {
      await page().waitForURL(/\/checkout\/fr\?bundle=shape-3/);
      await page().getByTestId("checkout-error").waitFor();
      expect(await page().locator('[name="email"]').inputValue()).toBe(buyer.email);
    }
  });

  it.each([
    ["approves", "gateway-approve"],
    ["cancels", "gateway-decline"],
  ])("sends a bank payment to the bank page, which %s it", async (how, button) => {
    await openCheckout();
    await fillContact();
    await page().locator('input[name="method"][value="bank"]').check();
    await page().getByTestId("place-order").click();
    await page().waitForURL(/\/test-gateway\/bank\//);
    await page().getByTestId(button).click();
    if (how === "approves") {
      await page().waitForURL(/\/upsell\/fr/);
    } else {
      await page().waitForURL(/\/checkout\/fr/);
      expect(await page().getByTestId("checkout-error").textContent()).toMatch(/annulé/);
      expect(await page().locator('[name="givenName"]').inputValue()).toBe("Anna");
    }
  });

  it("makes one order of a double click on the pay button, and the back button does not pay again", async () => {
    await openCheckout();
    await fillContact();
    await page().locator('[autocomplete="cc-number"]').fill("4242424242424242");
    await page().locator('[autocomplete="cc-exp"]').fill("12/30");
    await page().locator('[autocomplete="cc-csc"]').fill("123");
    await page().getByTestId("place-order").dblclick();
    await page().waitForURL(/\/upsell\/fr/);
    await page().goBack();
    await page().waitForURL(/\/checkout\/fr/);
    await openHydrated(page(), `${baseUrl}/thankyou/fr`);
    const number = (await page().getByTestId("order-number").textContent()) ?? "";
    await expect.poll(async () => (await mailsFor(number)).length, { timeout: 15_000 }).toBe(1);
  });
});

describe("the checkout form on the server", () => {
  // These posts share one client address with every browser test before them: they start in a
  // window of their own, so the checkout's rate limit answers what they test and not 429.
  beforeAll(freshRateWindow, 70_000);

  async function formOf(market: string): Promise<{ token: string; cookie: string }> {
    const response = await fetch(`${baseUrl}/checkout/${market}?bundle=shape-1`);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    // The form's token is bound to the browser's own cookie, set with the page.
    const cookie = /vn_checkout=[^;]+/.exec(response.headers.get("set-cookie") ?? "")?.[0] ?? "";
    const html = await response.text();
    return { token: /name="token" value="([^"]+)"/.exec(html)?.[1] ?? "", cookie };
  }

  const body = (token: string, changes: Record<string, string> = {}) =>
    new URLSearchParams({ ...buyer, postalCode: "10115", city: "Berlin", country: "DE", method: "card", cardNumber: "4242424242424242", cardExpiry: "12/30", cardCvc: "123", bundle: "shape-1", token, ...changes });

  const post = (form: URLSearchParams, cookie = "") =>
    fetch(`${baseUrl}/checkout/de?bundle=shape-1`, { method: "POST", body: form, redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });

  it("gives one order for the same form sent twice at once", async () => {
    const { token, cookie } = await formOf("de");
    const answers = await Promise.all([post(body(token), cookie), post(body(token), cookie)]);
    const cookieOf = (response: Response) => /vn_order=[^;]+/.exec(response.headers.get("set-cookie") ?? "")?.[0];
    // The one that placed the order goes on with its cookie. The other joins it while it is still
    // paying (same cookie), or, once it is paid, is told so without the cookie: a form token alone
    // does not prove which browser sends it.
    const [placing, other] = answers[0]?.status === 303 && cookieOf(answers[0]) ? [answers[0], answers[1]] : [answers[1], answers[0]];
    expect(placing?.status).toBe(303);
    expect(placing?.headers.get("location")).toBe("/upsell/de");
    expect(placing && cookieOf(placing)).toBeDefined();
    if (other?.status === 303) expect(cookieOf(other)).toBe(placing && cookieOf(placing));
    else expect([other?.status, other && cookieOf(other)]).toEqual([409, undefined]);
  });

  it.each([
    ["a forged token", 403, (token: string) => body(`${token.slice(0, -3)}abc`)],
    ["a token for another bundle", 403, (token: string) => body(token, { bundle: "shape-6" })],
    ["an unknown bundle", 400, (token: string) => body(token, { bundle: "gold-9" })],
    ["a price in the form", 303, (token: string) => body(token, { totalMinor: "1", price: "1" })],
    ["a bad postal code", 400, (token: string) => body(token, { postalCode: "ABC" })],
  ])("answers %s with %i", async (_, status, build) => {
    const { token, cookie } = await formOf("de");
    const response = await post(build(token), cookie);
    expect(response.status).toBe(status);
    if (status === 303) expect(response.headers.get("location")).toBe("/upsell/de");
  });

  it("sends a paid order's form, sent again by its own browser, on to the next step without a second order", async () => {
    const form = await formOf("de");
    const paid = await post(body(form.token), form.cookie);
    expect(paid.status).toBe(303);
    const cookie = /vn_order=[^;]+/.exec(paid.headers.get("set-cookie") ?? "")?.[0];
    const again = await post(body(form.token), `${form.cookie}; ${cookie}`);
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe("/upsell/de");
    expect(/vn_order=[^;]+/.exec(again.headers.get("set-cookie") ?? "")?.[0]).toBe(cookie);
  });

  it("gives another browser that replays a paid order's form no access to the order", async () => {
    const { token, cookie } = await formOf("de");
    const paid = await post(body(token), cookie);
    expect(paid.status).toBe(303);
    const replayed = await post(body(token), "vn_other=1");
    expect(replayed.status).toBe(403);
    expect(replayed.headers.get("set-cookie") ?? "").not.toMatch(/vn_order=/);
    expect(replayed.headers.get("location")).toBeNull();
  });

  it("refuses a copy of an unpaid order's form posted from another browser, showing that browser the form again with the details it sent", async () => {
    const shown = await formOf("de");
    const declined = await post(body(shown.token, { cardNumber: "4000000000000002" }), shown.cookie);
    expect(declined.status).toBe(402);
    expect(declined.headers.get("set-cookie") ?? "").toMatch(/vn_order=/);
    // Another browser (another checkout cookie, or none) posts the copy: no order, no cookie of it.
    for (const cookie of ["", (await formOf("de")).cookie]) {
      const copied = await post(body(shown.token), cookie);
      expect(copied.status).toBe(403);
      expect(copied.headers.get("set-cookie") ?? "").not.toMatch(/vn_order=/);
      const page = await copied.text();
      expect(page).toContain('data-testid="checkout-error"');
      expect(page).toContain(`value="${buyer.email}"`);
      const fresh = /name="token" value="([^"]+)"/.exec(page)?.[1] ?? "";
      expect(fresh).not.toBe(shown.token);
      // The form shown again works from that browser, as its own new order.
      const own = cookie || (/vn_checkout=[^;]+/.exec(copied.headers.get("set-cookie") ?? "")?.[0] ?? "");
      const placed = await post(body(fresh), own);
      expect(placed.status).toBe(303);
    }
    // The browser it was shown to pays its order.
    const paid = await post(body(shown.token), `${shown.cookie}; ${/vn_order=[^;]+/.exec(declined.headers.get("set-cookie") ?? "")?.[0] ?? ""}`);
    expect(paid.status).toBe(303);
  });

  it("refuses an oversized body with 413 and JSON with 415", async () => {
    const big = await fetch(`${baseUrl}/checkout/de?bundle=shape-1`, { method: "POST", body: "x=" + "a".repeat(40_000), headers: { "Content-Type": "application/x-www-form-urlencoded" }, redirect: "manual" });
    expect(big.status).toBe(413);
    const json = await fetch(`${baseUrl}/checkout/de?bundle=shape-1`, { method: "POST", body: "{}", headers: { "Content-Type": "application/json" }, redirect: "manual" });
    expect(json.status).toBe(415);
  });
});

describe("the withdrawal function", () => {
  it.each([
    ["de", "Anna Muster", "Wohin Sie die Ware zurücksenden", "Niederlande", "auch angebrochene"],
    ["se", "Anna Svensson", "Vart du skickar tillbaka varorna", "Nederländerna", "även öppnade"],
  ])("in %s is linked from every footer, asks for confirmation, acknowledges with the date and time of receipt and says where to send the goods back", { timeout: 60_000 }, async (market, name, returnHeading, country, whatToSend) => {
    await openHydrated(page(), `${baseUrl}/offer/${market}`);
    await page().getByTestId("footer-withdraw").click();
    await page().waitForURL(`${baseUrl}/withdraw/${market}`);
    await page().locator('[name="name"]').fill(name);
    await page().locator('[name="orderNumber"]').fill("VN-2345-6789");
    await page().locator('[name="email"]').fill("anna@example.com");
    await page().locator('button[name="intent"][value="review"]').click();
    await page().getByTestId("withdraw-confirm").click();
    const received = page().getByTestId("withdraw-received");
    await received.waitFor();
    const text = (await received.textContent()) ?? "";
    expect(text).toContain("VN-2345-6789");
    const reference = /W-[2-9A-Z]{8}/.exec(text)?.[0] ?? "";
    expect(reference).not.toBe("");
    expect(text).toMatch(/\d{1,2}[:.]\d{2}/);
    expect(await received.getByRole("heading", { name: returnHeading }).isVisible()).toBe(true);
    const address = (await page().getByTestId("withdraw-return-address").innerText()).split("\n").map((line) => line.trim()).filter(Boolean);
    expect(address).toEqual(["Vitanor Nutrition B.V.", expect.any(String), "Keizersgracht 241", "1016 EA Amsterdam", country]);
    expect(text).toContain(whatToSend);

    await expect.poll(async () => (await mailsFor(reference, "withdrawal")).length, { timeout: 15_000 }).toBe(1);
    const [mail = ""] = await mailsFor(reference, "withdrawal");
    expect(mail).toContain(returnHeading);
    for (const line of address) expect(mail).toContain(line);
    expect(mail).toContain(whatToSend);
  });
});
