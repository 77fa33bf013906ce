import { describe, expect, it } from "vitest";
import { readStoreSettings } from "../composition/settings.server";

const meta = { META_PIXEL_ID: "1234567890", META_CAPI_TOKEN: "EAAB-token" };
const ga4 = { GA4_MEASUREMENT_ID: "G-ABC123XYZ", GA4_API_SECRET: "secret" };

describe("the ad platforms' settings", () => {
  it("switch nothing on while unset", () => {
    expect(readStoreSettings({}).conversions).toEqual({ meta: null, ga4: null });
  });

  it("reach each platform's own address unless told otherwise", () => {
    expect(readStoreSettings({ ...meta, ...ga4 }).conversions).toEqual({
      meta: { pixelId: "1234567890", accessToken: "EAAB-token", apiUrl: "https://graph.facebook.com" },
      ga4: { measurementId: "G-ABC123XYZ", apiSecret: "secret", apiUrl: "https://www.google-analytics.com" },
    });
    expect(readStoreSettings({ ...meta, META_API_URL: "http://127.0.0.1:9999/" }).conversions.meta?.apiUrl).toBe("http://127.0.0.1:9999");
  });

  it.each([
    [{ META_PIXEL_ID: "1234567890" }, "META_PIXEL_ID is set but META_CAPI_TOKEN is not: set both META_PIXEL_ID and META_CAPI_TOKEN, or neither"],
    [{ META_CAPI_TOKEN: "EAAB-token" }, "META_CAPI_TOKEN is set but META_PIXEL_ID is not"],
    [{ GA4_API_SECRET: "secret" }, "GA4_API_SECRET is set but GA4_MEASUREMENT_ID is not: set both GA4_MEASUREMENT_ID and GA4_API_SECRET, or neither"],
    [{ ...meta, META_PIXEL_ID: "pixel" }, "META_PIXEL_ID must be the pixel's (dataset's) number"],
    [{ ...ga4, GA4_MEASUREMENT_ID: "UA-12345-1" }, "GA4_MEASUREMENT_ID must be a web stream's measurement id such as G-ABC123XYZ, got 'UA-12345-1'."],
    [{ ...ga4, GA4_API_URL: "ftp://x" }, "GA4_API_URL must be a URL starting with http:// or https://"],
    [{ ...meta, STORE_MODE: "live", META_API_URL: "http://127.0.0.1:9999" }, "META_API_URL must be the provider's own (https://graph.facebook.com)"],
  ])("refuses %j naming the variable", (env, message) => {
    expect(() => readStoreSettings(env)).toThrow(message);
  });

  it("lets the go-live check list a half-set pair as a line of its own", () => {
    const problems: string[] = [];
    expect(readStoreSettings({ GA4_MEASUREMENT_ID: "G-ABC123XYZ" }, { problems }).conversions.ga4).toBeNull();
    expect(problems).toEqual(["GA4_MEASUREMENT_ID is set but GA4_API_SECRET is not: set both GA4_MEASUREMENT_ID and GA4_API_SECRET, or neither (then nothing is sent to that platform)."]);
  });
});
