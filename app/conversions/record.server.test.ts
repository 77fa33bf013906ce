import { describe, expect, it } from "vitest";
import { clientAddressHeader } from "../../server/client-address";
import type { ConversionSettings } from "./conversion-settings";
import { conversionRequestOf } from "./record.server";

const meta = { pixelId: "1234567890", accessToken: "EAAB-store-token", apiUrl: "http://meta.test" };
const ga4 = { measurementId: "G-STORE123", apiSecret: "store-secret", apiUrl: "http://ga4.test" };

function checkoutPost(consent: string): Request {
  return new Request("https://shop.example.test/checkout/de?bundle=shape-3", {
    method: "POST",
    headers: { Cookie: `vitanor_consent=${consent}; _ga=GA1.1.424242.1795770000`, [clientAddressHeader]: "203.0.113.7", "User-Agent": "Mozilla/5.0" },
  });
}

const placed = (settings: ConversionSettings) => ({ fbclid: "IwAR-click", settings });

describe("what the checkout keeps for the ad platforms", () => {
  it("keeps the address and user agent of a consenting buyer when Meta is configured", () => {
    expect(conversionRequestOf(checkoutPost("granted"), placed({ meta, ga4 }))).toMatchObject({
      fbclid: "IwAR-click",
      clientAddress: "203.0.113.7",
      userAgent: "Mozilla/5.0",
      pageUrl: "https://shop.example.test/checkout/de",
    });
  });

  it("keeps nothing without consent", () => {
    expect(conversionRequestOf(checkoutPost("denied"), placed({ meta, ga4 }))).toBeNull();
  });

  it("keeps nothing when no platform is configured", () => {
    expect(conversionRequestOf(checkoutPost("granted"), placed({ meta: null, ga4: null }))).toBeNull();
  });

  it("keeps no address or user agent when only GA4, which takes neither, is configured", () => {
    expect(conversionRequestOf(checkoutPost("granted"), placed({ meta: null, ga4 }))).toMatchObject({ clientAddress: null, userAgent: null, gaCookie: "GA1.1.424242.1795770000" });
  });
});
