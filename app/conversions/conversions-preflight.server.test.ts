import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGa4, type FakeGa4 } from "../../tests/fakes/ga4-measurement-protocol";
import { startFakeMetaConversions, type FakeMetaConversions } from "../../tests/fakes/meta-conversions-api";
import { conversionChecks } from "./conversions-preflight.server";
import { metaTestEventCode } from "./payloads";

const pixel = { pixelId: "1234567890", accessToken: "EAAB-store-token" };
const stream = { measurementId: "G-STORE123", apiSecret: "store-secret" };
const publicUrl = "https://shop.example.test";

let meta: FakeMetaConversions;
let ga4: FakeGa4;
beforeAll(async () => {
  [meta, ga4] = await Promise.all([startFakeMetaConversions(pixel), startFakeGa4(stream)]);
});
afterAll(() => Promise.all([meta.close(), ga4.close()]));

const lines = (checks: { name: string; status: string; detail: string }[]) => checks.map((check) => `${check.status} ${check.name}: ${check.detail}`);

describe("the go-live check of the ad platforms", () => {
  it("has no line for a platform that is not configured", async () => {
    expect(await conversionChecks({ meta: null, ga4: null }, publicUrl)).toEqual([]);
  });

  it("tries each platform's credentials with its test facility, reporting nothing for real", async () => {
    const checks = await conversionChecks({ meta: { ...pixel, apiUrl: meta.url }, ga4: { ...stream, apiUrl: ga4.url } }, publicUrl);
    expect(lines(checks)).toEqual([
      `ok Meta Conversions API: pixel 1234567890 took a test event (${metaTestEventCode} under Test events)`,
      "ok GA4 Measurement Protocol: G-STORE123 took a purchase on the validation server (which does not check GA4_API_SECRET: compare it with the stream's)",
    ]);
    expect(meta.events).toEqual([]);
    expect(meta.testEvents.map((event) => event.testEventCode)).toEqual([metaTestEventCode]);
    expect(ga4.events).toEqual([]);
    expect(ga4.validated).toHaveLength(1);
  });

  it("warns with the platform's word on wrong credentials, naming the settings to check", async () => {
    const checks = await conversionChecks({ meta: { ...pixel, accessToken: "wrong", apiUrl: meta.url }, ga4: { ...stream, measurementId: "G-OTHER1", apiUrl: ga4.url } }, publicUrl);
    expect(checks.map((check) => [check.status, check.detail, check.fix])).toEqual([
      ["warn", "pixel 1234567890 refused a test event: Invalid OAuth access token - Cannot parse access token", "Check META_PIXEL_ID and META_CAPI_TOKEN (a token generated for this pixel in Events Manager)."],
      ["warn", "the validation server refused a purchase: Unknown measurement_id [G-OTHER1].", "Check GA4_MEASUREMENT_ID."],
    ]);
  });

  it("warns when a platform does not answer", async () => {
    const checks = await conversionChecks({ meta: { ...pixel, apiUrl: "http://127.0.0.1:9" }, ga4: null }, publicUrl);
    expect(checks.map((check) => [check.status, check.fix])).toEqual([["warn", "Check META_API_URL, or unset it for Meta's own address."]]);
  });
});
