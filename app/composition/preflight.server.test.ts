import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { desc } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { digitalFiles } from "../downloads/schema";
import { startFakePayPal, type FakePayPal, type FakeWebhook } from "../../tests/fakes/paypal/fake-paypal-api";
import { startFakeStripe, type FakeStripe, type FakeStripeOptions } from "../../tests/fakes/stripe/fake-stripe-api";
import { startMailbox, type Mailbox } from "../../tests/e2e/support/mailbox";
import { openDatabase, type OpenDatabase } from "../db/database.server";
import { payPalWebhookEventTypes } from "../payments/paypal/paypal-webhooks.server";
import type { PreflightCheck } from "../payments/preflight-check";
import { stripeWebhookEventTypes } from "../payments/stripe/stripe-webhooks.server";
import { addDigitalFile } from "../downloads/digital-files.server";
import { filesystemStorage } from "../downloads/storage.server";
import { sampleFiles, scratchFolder } from "../test-support/digital-files";
import { readStoreSettings } from "./settings.server";
import { formatPreflight, preflightFailed, runPreflight } from "./preflight.server";
import { preflightOf } from "./preflight-command.server";

const publicUrl = "https://shop.example.test";
const everyStripeMethod = ["card", "klarna", "bancontact", "sepa_debit", "eps", "swish", "mobilepay", "twint"];
const stripeWebhook = { url: `${publicUrl}/webhooks/stripe`, enabled_events: [...stripeWebhookEventTypes], api_version: Stripe.API_VERSION };
const payPalWebhook: FakeWebhook = { id: "STOREWEBHOOK01", url: `${publicUrl}/webhooks/paypal`, event_types: payPalWebhookEventTypes.map((name) => ({ name })) };

let database: OpenDatabase;
let mailbox: Mailbox;
let scratch: Awaited<ReturnType<typeof scratchFolder>>;
beforeAll(async () => {
  database = await openDatabase({ memory: true });
  mailbox = await startMailbox();
  scratch = await scratchFolder();
});
afterAll(async () => {
  await mailbox.close();
  await database.close();
  await scratch.cleanup();
});

/** Every digital product gets its default file, as an operator uploads it. */
async function storeEveryFile(): Promise<void> {
  const storage = filesystemStorage(`${scratch.dir}/files`);
  for (const [productId, bytes] of [["ebook", await sampleFiles.pdf()], ["mind", await sampleFiles.zip()]] as const) {
    const added = await addDigitalFile(database.db, storage, { productId, path: await scratch.write(`${productId}.upload`, bytes), uploadedBy: "test" }, { maxBytes: 1024 * 1024 });
    expect(added.kind).toBe("added");
  }
}

const fakes: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(fakes.map((fake) => fake.close())));

async function stripeFake(options: FakeStripeOptions): Promise<FakeStripe> {
  const fake = await startFakeStripe({ webhookSecret: "whsec_store", ...options });
  fakes.push(fake);
  return fake;
}

async function payPalFake(webhooks: FakeWebhook[]): Promise<FakePayPal> {
  const fake = await startFakePayPal({ clientId: "client", clientSecret: "secret", webhookId: "STOREWEBHOOK01", webhooks });
  fakes.push(fake);
  return fake;
}

function stripeEnv(fake: FakeStripe, keys = { secret: "sk_live_store", publishable: "pk_live_store" }) {
  return { STRIPE_SECRET_KEY: keys.secret, STRIPE_PUBLISHABLE_KEY: keys.publishable, STRIPE_WEBHOOK_SECRET: "whsec_store", STRIPE_API_URL: fake.url };
}

/** The check in live mode against the local fakes, which only STORE_TEST_PROVIDER_URLS lets live mode reach. */
async function check(env: Record<string, string>): Promise<PreflightCheck[]> {
  const settings = readStoreSettings({ STORE_MODE: "live", STORE_TEST_PROVIDER_URLS: "1", PUBLIC_URL: publicUrl, SMTP_URL: mailbox.url, DATA_DIR: scratch.dir, ...env });
  return runPreflight(settings, { db: database.db, kind: env.DATABASE_URL ? "postgres" : "pglite" });
}

/** The checks of one name, as `status: detail`. */
function lines(checks: readonly PreflightCheck[], name: string): string[] {
  return checks.filter((c) => c.name === name).map((c) => `${c.status}: ${c.detail}`);
}

describe("the go-live check", () => {
  it("fails while a digital product has no file, naming each product and the command that stores one", async () => {
    const stripe = await stripeFake({ secretKey: "sk_live_store", webhookEndpoints: [stripeWebhook], paymentMethodConfigurations: [{ enabled: everyStripeMethod }] });
    const checks = await check(stripeEnv(stripe));
    expect(preflightFailed(checks)).toBe(true);
    const [files] = checks.filter((c) => c.name === "Digital products' files");
    expect(files?.status).toBe("fail");
    expect(files?.detail).toContain("Vitanor Calm Mind audio programme (mind)");
    expect(files?.detail).toContain("Vitanor Everyday Recipes ebook (ebook)");
    expect(files?.fix).toContain("npm run admin -- add-file");
  });

  it("passes a store whose Stripe account is ready, with a warning for what only costs convenience, but for the test providers' addresses", async () => {
    await storeEveryFile();
    const stripe = await stripeFake({ secretKey: "sk_live_store", webhookEndpoints: [stripeWebhook], paymentMethodConfigurations: [{ enabled: everyStripeMethod }] });
    const checks = await check(stripeEnv(stripe));
    expect(checks.filter((c) => c.status === "fail").map((c) => c.name), formatPreflight(checks)).toEqual(["Provider addresses"]);
    expect(lines(checks, "Provider addresses")).toEqual([expect.stringMatching(/^fail: STORE_TEST_PROVIDER_URLS is set/)]);
    expect(checks.find((c) => c.name === "Provider addresses")?.fix).toContain("Unset STORE_TEST_PROVIDER_URLS");
    expect(checks.map((c) => `${c.status} ${c.name}`)).toEqual([
      "ok Store mode",
      "ok Public address",
      "fail Provider addresses",
      "ok Stripe keys",
      "ok Stripe webhook",
      "ok Stripe webhook version",
      "ok Stripe payment methods",
      "ok Stripe SEPA Direct Debit",
      "ok Payment methods per market",
      "ok E-mail",
      "ok Database",
      "warn Database kind",
      "ok Digital products' files",
    ]);
    for (const problem of checks.filter((c) => c.status !== "ok")) expect(problem.fix).toBeTruthy();
  });

  it.each<[string, FakeStripeOptions, { secret: string; publishable: string } | undefined, string, RegExp]>([
    ["test keys", { secretKey: "sk_test_store" }, { secret: "sk_test_store", publishable: "pk_test_store" }, "Stripe keys", /^fail: test keys take no real money/],
    ["keys of two modes", { secretKey: "sk_live_store" }, { secret: "sk_live_store", publishable: "pk_test_store" }, "Stripe keys", /^fail: the secret key is a live key and the publishable key a test key/],
    ["a key Stripe does not know", { secretKey: "sk_live_other" }, undefined, "Stripe account", /^fail: Stripe refused the secret key/],
    ["no webhook endpoint", { secretKey: "sk_live_store" }, undefined, "Stripe webhook", /^fail: no enabled endpoint for https:\/\/shop\.example\.test\/webhooks\/stripe/],
    [
      "an endpoint for another address",
      { secretKey: "sk_live_store", webhookEndpoints: [{ ...stripeWebhook, url: "https://old.example.test/webhooks/stripe" }] },
      undefined,
      "Stripe webhook",
      /^fail: no enabled endpoint/,
    ],
    ["a disabled endpoint", { secretKey: "sk_live_store", webhookEndpoints: [{ ...stripeWebhook, status: "disabled" }] }, undefined, "Stripe webhook", /^fail: no enabled endpoint/],
    [
      "an endpoint missing events",
      { secretKey: "sk_live_store", webhookEndpoints: [{ ...stripeWebhook, enabled_events: ["payment_intent.succeeded"] }] },
      undefined,
      "Stripe webhook",
      /^fail: the endpoint for .* does not send payment_intent\.processing, payment_intent\.payment_failed/,
    ],
    [
      "methods switched off",
      { secretKey: "sk_live_store", webhookEndpoints: [stripeWebhook], paymentMethodConfigurations: [{ enabled: ["card", "klarna", "bancontact", "eps", "mobilepay", "twint"] }] },
      undefined,
      "Stripe payment methods",
      /^fail: not available on the account: SE swish$/,
    ],
    [
      "SEPA Direct Debit switched off, which Bancontact's upsells are charged by",
      { secretKey: "sk_live_store", webhookEndpoints: [stripeWebhook], paymentMethodConfigurations: [{ enabled: everyStripeMethod.filter((method) => method !== "sepa_debit") }] },
      undefined,
      "Stripe SEPA Direct Debit",
      /^fail: not available on the account, and BE's Bancontact payments are charged again by it for upsells$/,
    ],
    [
      "an endpoint that renders events in another API version",
      { secretKey: "sk_live_store", webhookEndpoints: [{ ...stripeWebhook, api_version: "2024-04-10" }], paymentMethodConfigurations: [{ enabled: everyStripeMethod }] },
      undefined,
      "Stripe webhook version",
      new RegExp(`^fail: the endpoint sends events of API version 2024-04-10; the store reads ${Stripe.API_VERSION.replace(/\./g, "\\.")}$`),
    ],
    ["no default configuration", { secretKey: "sk_live_store", webhookEndpoints: [stripeWebhook], paymentMethodConfigurations: [{ enabled: everyStripeMethod, is_default: false }] }, undefined, "Stripe payment methods", /^fail: the account has no active default/],
  ])("fails on %s, naming it", async (_case, fakeOptions, keys, name, expected) => {
    const stripe = await stripeFake(fakeOptions);
    const checks = await check(stripeEnv(stripe, keys));
    expect(preflightFailed(checks)).toBe(true);
    expect(lines(checks, name)).toEqual([expect.stringMatching(expected)]);
  });

  it("warns of an endpoint on the account's default API version, which the store cannot read from here", async () => {
    const stripe = await stripeFake({ secretKey: "sk_live_store", webhookEndpoints: [{ ...stripeWebhook, api_version: null }], paymentMethodConfigurations: [{ enabled: everyStripeMethod }] });
    const checks = await check(stripeEnv(stripe));
    expect(lines(checks, "Stripe webhook version")).toEqual([expect.stringMatching(new RegExp(`^warn: the endpoint sends events of the account's default API version`))]);
    expect(checks.find((c) => c.name === "Stripe webhook version")?.fix).toContain(Stripe.API_VERSION);
  });

  it.each<[string, Record<string, string>, string, RegExp]>([
    ["test mode", { STORE_MODE: "test" }, "Store mode", /^fail: test/],
    ["an http address", { PUBLIC_URL: "http://shop.example.test" }, "Public address", /^fail: http:\/\/shop\.example\.test is not https/],
    ["no SMTP server", { SMTP_URL: "" }, "E-mail", /^fail: no SMTP_URL/],
    ["an SMTP server that does not answer", { SMTP_URL: "smtp://127.0.0.1:1" }, "E-mail", /^fail: SMTP server 127\.0\.0\.1:1 does not answer/],
  ])("fails on %s", async (_case, env, name, expected) => {
    const stripe = await stripeFake({ secretKey: "sk_live_store", webhookEndpoints: [stripeWebhook], paymentMethodConfigurations: [{ enabled: everyStripeMethod }] });
    const checks = await check({ ...stripeEnv(stripe), ...env });
    expect(lines(checks, name)).toEqual([expect.stringMatching(expected)]);
  });

  it.each<[string, FakeWebhook[], Record<string, string>, string, RegExp]>([
    ["a ready PayPal app", [payPalWebhook], {}, "PayPal webhook", /^ok: /],
    ["no webhook with PAYPAL_WEBHOOK_ID", [{ ...payPalWebhook, id: "OTHERWEBHOOK01" }], {}, "PayPal webhook", /^fail: no webhook with the id in PAYPAL_WEBHOOK_ID/],
    ["a webhook for another address", [{ ...payPalWebhook, url: "https://old.example.test/webhooks/paypal" }], {}, "PayPal webhook", /^fail: PAYPAL_WEBHOOK_ID's webhook posts to https:\/\/old/],
    ["a webhook missing events", [{ ...payPalWebhook, event_types: [{ name: "PAYMENT.CAPTURE.COMPLETED" }] }], {}, "PayPal webhook", /^fail: the webhook for .* does not send CHECKOUT\.ORDER\.APPROVED/],
    ["a webhook for every event", [{ ...payPalWebhook, event_types: [{ name: "*" }] }], {}, "PayPal webhook", /^ok: /],
    ["credentials PayPal refuses", [payPalWebhook], { PAYPAL_CLIENT_SECRET: "wrong" }, "PayPal credentials", /^fail: PayPal refused the client id and secret/],
    ["PayPal alone, which Switzerland does not offer", [payPalWebhook], {}, "Payment methods per market", /^fail: no way to pay in CH, CH-FR/],
  ])("PayPal: %s", async (_case, webhooks, env, name, expected) => {
    const paypal = await payPalFake(webhooks);
    const checks = await check({ PAYPAL_CLIENT_ID: "client", PAYPAL_CLIENT_SECRET: "secret", PAYPAL_WEBHOOK_ID: "STOREWEBHOOK01", PAYPAL_API_URL: paypal.url, ...env });
    expect(lines(checks, name)).toEqual([expect.stringMatching(expected)]);
  });

  it("lists every check with its fix in live mode without any provider's keys, instead of stopping at the first sentence", async () => {
    await storeEveryFile();
    const checks = await preflightOf({ STORE_MODE: "live", PUBLIC_URL: publicUrl, SMTP_URL: mailbox.url, DATA_DIR: scratch.dir }, { db: database.db, kind: "pglite" });
    expect(checks.map((c) => `${c.status} ${c.name}`)).toEqual([
      "ok Store mode",
      "ok Public address",
      "fail Payment provider",
      "fail Payment methods per market",
      "ok E-mail",
      "ok Database",
      "warn Database kind",
      "ok Digital products' files",
    ]);
    for (const problem of checks.filter((c) => c.status !== "ok")) expect(problem.fix, problem.name).toBeTruthy();
    expect(lines(checks, "Payment methods per market")).toEqual(["fail: no provider is configured, so no market has a way to pay"]);
  });

  it("lists a half-configured provider as a failed check with its fix, beside every other check", async () => {
    const checks = await preflightOf({ STORE_MODE: "live", PUBLIC_URL: "http://shop.example.test", SMTP_URL: "", STRIPE_SECRET_KEY: "sk_live_store", DATA_DIR: scratch.dir }, { db: database.db, kind: "pglite" });
    expect(checks.filter((c) => c.status === "fail").map((c) => c.name)).toEqual(["Settings", "Public address", "Payment provider", "Payment methods per market", "E-mail"]);
    expect(checks.find((c) => c.name === "Settings")).toMatchObject({
      detail: expect.stringContaining("STRIPE_SECRET_KEY is set but STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET are not"),
      fix: expect.stringContaining("STRIPE_PUBLISHABLE_KEY"),
    });
  });

  it("says every market has a way to pay only when the provider has answered", async () => {
    const stripe = await stripeFake({ secretKey: "sk_live_other" });
    const checks = await check(stripeEnv(stripe));
    expect(lines(checks, "Payment methods per market")).toEqual(["fail: Stripe has not confirmed its payment methods (see above), so no market's way to pay is known to work"]);
    const unknownMethods = await stripeFake({ secretKey: "sk_live_store", webhookEndpoints: [stripeWebhook], paymentMethodConfigurations: [{ enabled: ["card"] }] });
    expect(lines(await check(stripeEnv(unknownMethods)), "Payment methods per market")).toEqual([expect.stringMatching(/^fail: /)]);
  });

  describe("the files' bytes", () => {
    const filesOf = async () => {
      const stripe = await stripeFake({ secretKey: "sk_live_store", webhookEndpoints: [stripeWebhook], paymentMethodConfigurations: [{ enabled: everyStripeMethod }] });
      return (env: Record<string, string> = {}) => check({ ...stripeEnv(stripe), ...env });
    };

    it("fails when the files folder is gone, though the database lists every file", async () => {
      const run = await filesOf();
      await rm(join(scratch.dir, "files"), { recursive: true, force: true });
      const checks = await run();
      expect(preflightFailed(checks)).toBe(true);
      expect(lines(checks, "Digital products' files")).toEqual([expect.stringMatching(/^fail: (?=.*vitanor-everyday-recipes-ebook\.pdf \(ebook\) is missing from files in )(?=.*vitanor-calm-mind-audio-programme\.zip \(mind\) is missing)/)]);
      await storeEveryFile();
      expect(lines(await run(), "Digital products' files")).toEqual([expect.stringMatching(/^ok: /)]);
    });

    it("fails when a stored file is not the size the database recorded", async () => {
      const run = await filesOf();
      const [stored] = (await database.db.select().from(digitalFiles).orderBy(desc(digitalFiles.id))).filter((file) => file.productId === "ebook");
      if (!stored) throw new Error("no ebook");
      const path = join(scratch.dir, "files", stored.storageKey);
      const bytes = await readFile(path);
      await writeFile(path, bytes.subarray(0, 100));
      try {
        expect(lines(await run(), "Digital products' files")).toEqual([expect.stringMatching(new RegExp(`^fail: .*\\(ebook\\) has 100 bytes instead of ${stored.bytes}`))]);
      } finally {
        await writeFile(path, bytes);
      }
    });

    it("warns that other instances cannot read this instance's files with PostgreSQL and no S3_URL", async () => {
      const run = await filesOf();
      expect(lines(await run({ DATABASE_URL: "postgres://store@db.example.test/store" }), "File storage")).toEqual([expect.stringMatching(/^warn: .*other instances cannot read/)]);
      expect(lines(await run(), "File storage")).toEqual([]);
    });
  });

  it("prints one line per check and the fix under each problem", () => {
    const report = formatPreflight([
      { name: "Store mode", status: "ok", detail: "live" },
      { name: "E-mail", status: "fail", detail: "no SMTP_URL", fix: "Set SMTP_URL." },
    ]);
    expect(report.split("\n")).toEqual(["ok    Store mode  live", "FAIL  E-mail      no SMTP_URL", "                  → Set SMTP_URL."]);
  });
});
