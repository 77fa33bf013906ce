import { describe, expect, inject, it } from "vitest";
import { openHydrated, openPageSession } from "./support/chromium";

const baseUrl = inject("baseUrl");
const session = openPageSession({ width: 390, height: 844 });

// Long words (Finnish, German) and side-by-side fields are what push a page wider than a phone.
describe("on a 390-pixel phone", () => {
  it.each([
    "/fr",
    "/v1/de",
    "/summary/fi",
    "/offer/de",
    "/upsell/it",
    "/thankyou/es",
    "/checkout/fr?bundle=shape-3",
    "/checkout/fi?bundle=shape-3",
    "/checkout/de?bundle=shape-1",
    "/withdraw/de",
    "/refund/fi",
    "/feedback/dk",
  ])("%s fits the screen without sideways scrolling", async (path) => {
    await openHydrated(session.page, baseUrl + path);
    const widths = await session.page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.screen);
  });
});

describe("the footer's payment logos", () => {
  it.each([
    ["/offer/se", ["Swish", "Klarna"], []],
    ["/offer/be", ["Bancontact"], ["Swish"]],
    ["/offer/ch", ["TWINT"], ["PayPal"]],
    ["/offer/ch-fr", ["TWINT"], ["PayPal"]],
  ])("on %s show what that market offers", async (path, shown, absent) => {
    const html = await (await fetch(baseUrl + path)).text();
    const methods = /data-testid="payment-methods"[\s\S]*?<\/ul>/.exec(html)?.[0] ?? "";
    for (const name of shown) expect(methods).toContain(`alt="${name}`);
    for (const name of absent) expect(methods).not.toMatch(new RegExp(`alt="[^"]*${name}`));
  });
});
