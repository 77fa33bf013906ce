import { describe, expect, it } from "vitest";
import { readStoreSettings } from "../composition/settings.server";
import type { CommerceSettings } from "./commerce-settings";

const readCommerceSettings = (env: Record<string, string>, cwd: string) => readStoreSettings(env, { cwd });

const cwd = "/srv/storefront";
const stripeKeys = { STRIPE_SECRET_KEY: "sk_live_x", STRIPE_PUBLISHABLE_KEY: "pk_live_x", STRIPE_WEBHOOK_SECRET: "whsec_x" };
const paypalKeys = { PAYPAL_CLIENT_ID: "client", PAYPAL_CLIENT_SECRET: "secret", PAYPAL_WEBHOOK_ID: "hook" };

describe("readCommerceSettings", () => {
  it("has defaults for everything", () => {
    const settings = readCommerceSettings({}, cwd);
    expect(settings).toMatchObject({
      dataDir: "/srv/storefront/data",
      databaseUrl: null,
      smtpUrl: null,
      mailFrom: expect.stringContaining("<service@vitanor.eu>"),
      publicUrl: "http://localhost:3000",
      storeMode: "test",
      testProviderUrls: false,
      reviewInvitationDelayDays: 7,
      downloads: { s3: null, linkDays: 30, linkMaxDownloads: 10, fileMaxBytes: 200 * 1024 * 1024 },
      providers: {},
    });
  });

  it.each([
    [{ DOWNLOAD_LINK_DAYS: "7", DOWNLOAD_LINK_MAX_DOWNLOADS: "3", DOWNLOAD_FILE_MAX_MB: "50" }, { linkDays: 7, linkMaxDownloads: 3, fileMaxBytes: 50 * 1024 * 1024 }],
    [{ DOWNLOAD_LINK_DAYS: "365", DOWNLOAD_LINK_MAX_DOWNLOADS: "1000" }, { linkDays: 365, linkMaxDownloads: 1000 }],
  ])("takes the download settings %j", (env, expected) => {
    expect(readCommerceSettings(env, cwd).downloads).toMatchObject(expected);
  });

  it.each([
    ["DOWNLOAD_LINK_DAYS", "0", "from 1 to 365"],
    ["DOWNLOAD_LINK_DAYS", "a month", "from 1 to 365"],
    ["DOWNLOAD_LINK_MAX_DOWNLOADS", "0", "from 1 to 1000"],
    ["DOWNLOAD_LINK_MAX_DOWNLOADS", "2.5", "from 1 to 1000"],
    ["DOWNLOAD_FILE_MAX_MB", "5000", "from 1 to 4096"],
  ])("refuses %s=%j, naming the variable", (name, value, range) => {
    expect(() => readCommerceSettings({ [name]: value }, cwd)).toThrow(`${name} must be a whole number ${range}, got '${value}'.`);
  });

  it.each([
    ["0", 0],
    ["14", 14],
    [" 3 ", 3],
  ])("takes REVIEW_INVITATION_DELAY_DAYS=%j as %i days", (value, days) => {
    expect(readCommerceSettings({ REVIEW_INVITATION_DELAY_DAYS: value }, cwd).reviewInvitationDelayDays).toBe(days);
  });

  it.each(["-1", "1.5", "a week", "91"])("refuses REVIEW_INVITATION_DELAY_DAYS=%j, naming the variable", (value) => {
    expect(() => readCommerceSettings({ REVIEW_INVITATION_DELAY_DAYS: value }, cwd)).toThrow(`REVIEW_INVITATION_DELAY_DAYS must be a whole number from 0 to 90, got '${value}'.`);
  });

  it("takes a payment provider's settings as a set, PayPal on its sandbox in test mode", () => {
    const paypal = { PAYPAL_CLIENT_ID: "client", PAYPAL_CLIENT_SECRET: "secret", PAYPAL_WEBHOOK_ID: "hook" };
    expect(readCommerceSettings(paypal, cwd).providers.paypal).toEqual({ clientId: "client", clientSecret: "secret", webhookId: "hook", apiUrl: "https://api-m.sandbox.paypal.com" });
    expect(readCommerceSettings({ ...paypal, PAYPAL_API_URL: "http://127.0.0.1:9999" }, cwd).providers.paypal).toMatchObject({ apiUrl: "http://127.0.0.1:9999" });
    expect(() => readCommerceSettings({ PAYPAL_CLIENT_ID: "client" }, cwd)).toThrow("PAYPAL_CLIENT_ID is set but PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID are not");
    expect(() => readCommerceSettings({ STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x" }, cwd)).toThrow("STRIPE_PUBLISHABLE_KEY is not");
  });

  it.each<[string, Record<string, string>, Partial<Record<keyof CommerceSettings, unknown>>]>([
    ["PORT changes the default public URL", { PORT: "4000" }, { publicUrl: "http://localhost:4000" }],
    ["PUBLIC_URL is reduced to its origin", { PUBLIC_URL: "https://shop.example.com/path" }, { publicUrl: "https://shop.example.com" }],
    ["PUBLIC_URL wins over PORT", { PUBLIC_URL: "https://shop.example.com", PORT: "4000" }, { publicUrl: "https://shop.example.com" }],
    ["an empty PUBLIC_URL is no PUBLIC_URL", { PUBLIC_URL: "" }, { publicUrl: "http://localhost:3000" }],
    ["a relative DATA_DIR is under the working folder", { DATA_DIR: "state" }, { dataDir: "/srv/storefront/state" }],
    ["an absolute DATA_DIR is kept", { DATA_DIR: "/var/lib/storefront" }, { dataDir: "/var/lib/storefront" }],
    ["a postgres DATABASE_URL", { DATABASE_URL: "postgres://shop@db:5432/shop" }, { databaseUrl: "postgres://shop@db:5432/shop" }],
    ["a postgresql DATABASE_URL", { DATABASE_URL: "postgresql://shop@db/shop" }, { databaseUrl: "postgresql://shop@db/shop" }],
    ["an empty DATABASE_URL", { DATABASE_URL: "" }, { databaseUrl: null }],
    ["an smtp SMTP_URL", { SMTP_URL: "smtp://mail:25" }, { smtpUrl: "smtp://mail:25" }],
    ["an smtps SMTP_URL", { SMTP_URL: "smtps://user:pass@mail:465" }, { smtpUrl: "smtps://user:pass@mail:465" }],
    ["a bare MAIL_FROM address", { MAIL_FROM: "orders@example.com" }, { mailFrom: "orders@example.com" }],
    ["a MAIL_FROM with a name", { MAIL_FROM: "Vitanor Shop <orders@example.com>" }, { mailFrom: "Vitanor Shop <orders@example.com>" }],
    ["STORE_MODE test", { STORE_MODE: "test" }, { storeMode: "test" }],
    ["STORE_MODE live with Stripe", { STORE_MODE: "live", ...stripeKeys }, { storeMode: "live", providers: { stripe: expect.objectContaining({ secretKey: "sk_live_x", jsUrl: "https://js.stripe.com/v3/" }) } }],
    ["STORE_MODE live with PayPal, on PayPal's live API", { STORE_MODE: "live", ...paypalKeys }, { storeMode: "live", providers: { paypal: expect.objectContaining({ apiUrl: "https://api-m.paypal.com" }) } }],
    ["an empty STORE_MODE", { STORE_MODE: "" }, { storeMode: "test" }],
    ["Stripe's own URLs named in live mode", { STORE_MODE: "live", ...stripeKeys, STRIPE_API_URL: "https://api.stripe.com", STRIPE_JS_URL: "https://js.stripe.com/v3/" }, { providers: { stripe: expect.objectContaining({ apiUrl: "https://api.stripe.com" }) } }],
    ["PayPal's own live API named in live mode", { STORE_MODE: "live", ...paypalKeys, PAYPAL_API_URL: "https://api-m.paypal.com" }, { providers: { paypal: expect.objectContaining({ apiUrl: "https://api-m.paypal.com" }) } }],
    // Only the go-live check's own tests reach local fakes in live mode, and the check fails on it.
    [
      "a loopback provider URL in live mode with STORE_TEST_PROVIDER_URLS",
      { STORE_MODE: "live", STORE_TEST_PROVIDER_URLS: "1", ...stripeKeys, STRIPE_API_URL: "http://127.0.0.1:4010", STRIPE_JS_URL: "http://localhost:4010/v3/" },
      { testProviderUrls: true, providers: { stripe: expect.objectContaining({ apiUrl: "http://127.0.0.1:4010" }) } },
    ],
    ["no test provider URLs unless asked for", { STORE_MODE: "live", ...stripeKeys }, { testProviderUrls: false }],
    ["any provider URL in test mode", { ...stripeKeys, STRIPE_API_URL: "https://stripe-mock.example.com" }, { providers: { stripe: expect.objectContaining({ apiUrl: "https://stripe-mock.example.com" }) } }],
  ])("%s", (_name, env, expected) => {
    expect(readCommerceSettings(env, cwd)).toMatchObject(expected);
  });

  it.each<[string, Record<string, string>, string[]]>([
    ["DATABASE_URL of another database", { DATABASE_URL: "mysql://x" }, ["DATABASE_URL"]],
    ["DATABASE_URL that is not a URL", { DATABASE_URL: "not a url" }, ["DATABASE_URL"]],
    ["SMTP_URL over HTTP", { SMTP_URL: "http://x" }, ["SMTP_URL"]],
    ["PUBLIC_URL over FTP", { PUBLIC_URL: "ftp://shop.example.com" }, ["PUBLIC_URL"]],
    ["STORE_MODE live without a provider", { STORE_MODE: "live" }, ["STORE_MODE", "STRIPE_SECRET_KEY", "PAYPAL_CLIENT_ID"]],
    ["an unknown STORE_MODE", { STORE_MODE: "demo" }, ["STORE_MODE", "demo"]],
    ["MAIL_FROM that is not an address", { MAIL_FROM: "not an address" }, ["MAIL_FROM"]],
    ["MAIL_FROM without a domain", { MAIL_FROM: "orders@example" }, ["MAIL_FROM"]],
    // A test override left in production would send the live key, or load the payment script, elsewhere.
    ["STRIPE_API_URL of another host in live mode", { STORE_MODE: "live", ...stripeKeys, STRIPE_API_URL: "https://stripe-mock.example.com" }, ["STRIPE_API_URL", "https://api.stripe.com"]],
    ["STRIPE_API_URL over http in live mode", { STORE_MODE: "live", ...stripeKeys, STRIPE_API_URL: "http://api.stripe.com" }, ["STRIPE_API_URL"]],
    ["STRIPE_API_URL of a look-alike host in live mode", { STORE_MODE: "live", ...stripeKeys, STRIPE_API_URL: "https://api.stripe.com.example.net" }, ["STRIPE_API_URL"]],
    ["STRIPE_JS_URL of another host in live mode", { STORE_MODE: "live", ...stripeKeys, STRIPE_JS_URL: "https://cdn.example.com/stripe.js" }, ["STRIPE_JS_URL", "https://js.stripe.com"]],
    ["PAYPAL_API_URL of another host in live mode", { STORE_MODE: "live", ...paypalKeys, PAYPAL_API_URL: "https://paypal.example.com" }, ["PAYPAL_API_URL", "https://api-m.paypal.com"]],
    ["a host that only starts like a loopback address in live mode", { STORE_MODE: "live", ...stripeKeys, STRIPE_API_URL: "https://127.example.com" }, ["STRIPE_API_URL"]],
    // A test override left in production is most likely a fake on the same machine.
    ["a loopback STRIPE_API_URL in live mode", { STORE_MODE: "live", ...stripeKeys, STRIPE_API_URL: "http://127.0.0.1:4010" }, ["STRIPE_API_URL", "https://api.stripe.com"]],
    ["a localhost STRIPE_JS_URL in live mode", { STORE_MODE: "live", ...stripeKeys, STRIPE_JS_URL: "http://localhost:4010/v3/" }, ["STRIPE_JS_URL"]],
    ["a loopback PAYPAL_API_URL in live mode", { STORE_MODE: "live", ...paypalKeys, PAYPAL_API_URL: "http://[::1]:4020" }, ["PAYPAL_API_URL"]],
    [
      "another host with STORE_TEST_PROVIDER_URLS in live mode",
      { STORE_MODE: "live", STORE_TEST_PROVIDER_URLS: "1", ...stripeKeys, STRIPE_API_URL: "https://stripe-mock.example.com" },
      ["STRIPE_API_URL", "STORE_TEST_PROVIDER_URLS"],
    ],
    ["a STORE_TEST_PROVIDER_URLS other than 1", { STORE_TEST_PROVIDER_URLS: "yes" }, ["STORE_TEST_PROVIDER_URLS", "yes"]],
    ["a Stripe override with user info in live mode", { STORE_MODE: "live", ...stripeKeys, STRIPE_API_URL: "https://me@api.stripe.com" }, ["STRIPE_API_URL"]],
  ])("refuses %s, naming it", (_name, env, named) => {
    let thrown: unknown;
    try {
      readCommerceSettings(env, cwd);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    for (const name of named) expect((thrown as Error).message).toContain(name);
  });
});
