import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "../../server/csp";
import { readStoreSettings, thirdPartyOriginsOf } from "./settings.server";

const policyOf = (env: Record<string, string>) => contentSecurityPolicy([], thirdPartyOriginsOf(readStoreSettings(env)));
const stripeKeys = { STRIPE_SECRET_KEY: "sk_live_x", STRIPE_PUBLISHABLE_KEY: "pk_live_x", STRIPE_WEBHOOK_SECRET: "whsec_x" };

describe("the pages' Content-Security-Policy from the settings", () => {
  it("opens nothing while no setting switches a third party on", () => {
    const policy = policyOf({});
    expect(policy).not.toContain("imagedelivery");
    expect(policy).not.toContain("googletagmanager");
    expect(policy).not.toContain("frame-src");
  });

  it("adds only the origins the settings switch on", () => {
    const policy = policyOf({ IMAGE_PROVIDER: "cloudflare", CLOUDFLARE_IMAGES_ACCOUNT_HASH: "Vi7a_h4sh-123", GTM_ID: "GTM-ABC123" });
    expect(policy).toContain("img-src 'self' data: https://imagedelivery.net https://www.googletagmanager.com");
    expect(policy).toContain("script-src 'self' https://www.googletagmanager.com");
    expect(policy).toContain("connect-src 'self' https://www.googletagmanager.com https://*.google-analytics.com");
  });

  it.each([
    [
      "Stripe.js from Stripe",
      stripeKeys,
      {
        script: "script-src 'self' https://js.stripe.com https://*.js.stripe.com",
        frame: "frame-src 'self' https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com",
        connect: "connect-src 'self' https://api.stripe.com",
      },
    ],
    [
      "a stand-in served elsewhere",
      { ...stripeKeys, STRIPE_JS_URL: "http://127.0.0.1:4100/v3" },
      { script: "script-src 'self' http://127.0.0.1:4100", frame: "frame-src 'self' http://127.0.0.1:4100", connect: "connect-src 'self' http://127.0.0.1:4100" },
    ],
  ])("opens every page to %s while Stripe takes payments", (_, env, expected) => {
    const policy = policyOf(env);
    expect(policy).toContain(expected.script);
    expect(policy).toContain(expected.frame);
    expect(policy).toContain(expected.connect);
  });

  it("opens nothing for Stripe while it is not configured", () => {
    const policy = policyOf({ STRIPE_JS_URL: "https://js.stripe.com/v3/" });
    expect(policy).not.toContain("stripe");
    expect(policy).not.toContain("frame-src");
  });
});

describe("the one settings schema", () => {
  it("reads the pages' settings", () => {
    expect(readStoreSettings({ GTM_ID: "GTM-ABC123", BUILD_CHECK_INTERVAL_MS: "5000", GEO_COUNTRY_HEADERS: "X-Geo, X-Country" })).toMatchObject({
      gtmId: "GTM-ABC123",
      buildCheckIntervalMs: 5000,
      geoHeaders: ["X-Geo", "X-Country"],
      images: { provider: "local" },
    });
  });

  it.each([
    [{ BUILD_CHECK_INTERVAL_MS: "50" }, "BUILD_CHECK_INTERVAL_MS must be a whole number of milliseconds, at least 100, got '50'."],
    [{ GTM_ID: "gtm-abc" }, "'gtm-abc' is not a valid GTM-ID"],
    [{ IMAGE_PROVIDER: "imgix" }, "Unknown provider: imgix"],
    [{ LOG_LEVEL: "verbose" }, "LOG_LEVEL must be one of error, warn, info, debug, got 'verbose'."],
  ])("refuses %j with its message", (env, message) => {
    expect(() => readStoreSettings(env)).toThrow(message);
  });

  it("names every bad variable at once", () => {
    expect(() => readStoreSettings({ STORE_MODE: "demo", SMTP_URL: "http://x" })).toThrow(/STORE_MODE[\s\S]*SMTP_URL|SMTP_URL[\s\S]*STORE_MODE/);
  });
});
