import { resolve } from "node:path";
import contact from "../../content/contact.json";
import site from "../../content/site.json";
import type { S3Settings } from "../downloads/storage.server";
import { payPalApiOrigins, payPalApiUrls } from "../payments/paypal/paypal-provider.server";
import { stripeOrigins } from "../payments/stripe/stripe-provider.server";

/**
 * The settings of the store's commerce side (DESIGN §11), read from the environment once at start;
 * a bad one stops the server naming the variable and the form it expects.
 */
export interface CommerceSettings {
  /** Where the embedded database and the written e-mails live. */
  dataDir: string;
  /** A PostgreSQL server; without it the embedded database under `dataDir` is used. */
  databaseUrl: string | null;
  /** An SMTP server to send through; without it e-mails are written to `dataDir/mail/`. */
  smtpUrl: string | null;
  mailFrom: string;
  /** The origin that links in e-mails point to. */
  publicUrl: string;
  storeMode: "test" | "live";
  /**
   * `STORE_TEST_PROVIDER_URLS=1`: live mode accepts provider URLs on this machine (the tests' fakes),
   * and the go-live check fails on it, so a live store never starts with it.
   */
  testProviderUrls: boolean;
  /** Days between an order's fulfilment (a digital item's first download) and the e-mail inviting its buyer to review. */
  reviewInvitationDelayDays: number;
  /** Digital delivery (DESIGN §17): where the files live and how long a download link works. */
  downloads: DownloadSettings;
  /** PayPal's REST credentials, when the store has them (all three settings, or none). */
  paypal: { clientId: string; clientSecret: string; webhookId: string; apiUrl: string } | null;
  /** Stripe's keys, when the store has them (all three settings, or none). */
  stripe: { secretKey: string; publishableKey: string; webhookSecret: string; apiUrl: string | null; jsUrl: string } | null;
}

export interface DownloadSettings {
  /** S3-compatible object storage; without it the files live under `dataDir/files/`. */
  s3: S3Settings | null;
  linkDays: number;
  linkMaxDownloads: number;
  /** The largest file an operator may upload. */
  fileMaxBytes: number;
}

type Env = Record<string, string | undefined>;

function readUrl(env: Env, name: string, protocols: string[]): string | null {
  const value = env[name];
  if (value === undefined || value === "") return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be a URL starting with ${protocols.join(" or ")}, got something that is not a URL.`);
  }
  if (!protocols.includes(url.protocol.replace(/:$/, ""))) {
    throw new Error(`${name} must be a URL starting with ${protocols.map((p) => `${p}://`).join(" or ")}, got '${url.protocol}//…'.`);
  }
  return value;
}

const mailboxPattern = /^(?:[^<>@\s]+(?: [^<>@\s]+)* <)?[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>?$/;

/** The payment providers that take real money; the test gateway never does. */
const liveProviderVariables = ["STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET", "PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID"];

function readWholeNumber(env: Env, name: string, fallback: number, max: number, min = 0): number {
  const value = env[name];
  if (value === undefined || value === "") return fallback;
  if (!/^\d+$/.test(value.trim()) || Number(value) > max || Number(value) < min) throw new Error(`${name} must be a whole number from ${min} to ${max}, got '${value}'.`);
  return Number(value);
}

const s3Form = "https://<access key>:<secret key>@<endpoint host>/<bucket>?region=<region>";

/**
 * `S3_URL` holds everything the object storage needs in one setting: the endpoint, the bucket as
 * the path's one segment, the keys as the user part (percent-encoded), the region as a query.
 */
export function readS3Url(env: Env): S3Settings | null {
  const value = readUrl(env, "S3_URL", ["http", "https"]);
  if (!value) return null;
  const url = new URL(value);
  const bucket = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, ""));
  if (!url.username || !url.password || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new Error(`S3_URL must have the form ${s3Form}, with the keys and one bucket name.`);
  }
  return {
    endpoint: url.origin,
    bucket,
    region: url.searchParams.get("region") || "us-east-1",
    accessKeyId: decodeURIComponent(url.username),
    secretAccessKey: decodeURIComponent(url.password),
  };
}

export function readDownloadSettings(env: Env): DownloadSettings {
  return {
    s3: readS3Url(env),
    linkDays: readWholeNumber(env, "DOWNLOAD_LINK_DAYS", 30, 365, 1),
    linkMaxDownloads: readWholeNumber(env, "DOWNLOAD_LINK_MAX_DOWNLOADS", 10, 1000, 1),
    fileMaxBytes: readWholeNumber(env, "DOWNLOAD_FILE_MAX_MB", 200, 4096, 1) * 1024 * 1024,
  };
}

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

function loopback(url: URL): boolean {
  return loopbackHosts.has(url.hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname);
}

/**
 * In live mode a provider's API or script may only be the provider's own: a URL left over from a
 * test would send the live secret key (or the checkout's script) to whoever answers there, most
 * likely a fake on the same machine. Only with `STORE_TEST_PROVIDER_URLS=1`, which the go-live check
 * fails on, is a loopback address taken, so that the check itself can be tested against the fakes
 * (docs/decisions/0031-money-after-the-charge.md).
 */
function requireProviderOrigin(name: string, value: string | null, origins: readonly string[], testProviderUrls: boolean): void {
  if (value === null) return;
  const url = new URL(value);
  if (testProviderUrls && loopback(url)) return;
  if (!url.username && !url.password && origins.includes(url.origin)) return;
  const allowed = testProviderUrls ? `${origins.join(" or ")}, or on this machine with STORE_TEST_PROVIDER_URLS=1` : origins.join(" or ");
  throw new Error(`${name} must be the provider's own (${allowed}) with STORE_MODE=live, got '${url.origin}': a test override there would send live payments elsewhere. Unset ${name}.`);
}

function readTestProviderUrls(env: Env): boolean {
  const value = env.STORE_TEST_PROVIDER_URLS || "";
  if (value !== "" && value !== "1") throw new Error(`STORE_TEST_PROVIDER_URLS must be '1' or unset, got '${value}'.`);
  return value === "1";
}

/**
 * A provider's settings come as a set: all of them, or none (a half-configured provider is a
 * mistake). Told where to put problems, a half set is put there and read as none.
 */
function readSet<K extends string>(env: Env, names: readonly K[], problems?: string[]): Record<K, string> | null {
  const present = names.filter((name) => env[name]);
  if (present.length === 0) return null;
  const missing = names.filter((name) => !env[name]);
  if (missing.length > 0) {
    const problem = `${present.join(", ")} ${present.length === 1 ? "is" : "are"} set but ${missing.join(" and ")} ${missing.length === 1 ? "is" : "are"} not: set all of ${names.join(", ")}, or none.`;
    if (!problems) throw new Error(problem);
    problems.push(problem);
    return null;
  }
  return Object.fromEntries(names.map((name) => [name, env[name] as string])) as Record<K, string>;
}

/**
 * The settings as the go-live check reads them: what would stop the store from starting (a live
 * store without a provider, a half-configured provider) is listed in `problems` instead of thrown,
 * so that the check can go on and list everything else that is missing too.
 */
export function readSettingsForCheck(env: Env, cwd: string = process.cwd()): { settings: CommerceSettings; problems: string[] } {
  const problems: string[] = [];
  return { settings: readSettings(env, cwd, problems), problems };
}

export function readCommerceSettings(env: Env, cwd: string = process.cwd()): CommerceSettings {
  return readSettings(env, cwd);
}

function readSettings(env: Env, cwd: string, problems?: string[]): CommerceSettings {
  const storeMode = env.STORE_MODE || "test";
  if (storeMode !== "test" && storeMode !== "live") throw new Error(`STORE_MODE must be 'test' or 'live', got '${storeMode}'.`);
  const mailFrom = env.MAIL_FROM || `${site.brand} <${contact.email}>`;
  if (!mailboxPattern.test(mailFrom)) throw new Error(`MAIL_FROM must be an e-mail address, optionally with a name ('Vitanor <orders@example.com>'), got '${mailFrom}'.`);
  const publicUrl = readUrl(env, "PUBLIC_URL", ["http", "https"]) ?? `http://localhost:${env.PORT || "3000"}`;
  const reviewInvitationDelayDays = readWholeNumber(env, "REVIEW_INVITATION_DELAY_DAYS", 7, 90);
  const paypal = readSet(env, ["PAYPAL_CLIENT_ID", "PAYPAL_CLIENT_SECRET", "PAYPAL_WEBHOOK_ID"] as const, problems);
  const stripe = readSet(env, ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"] as const, problems);
  // The go-live check lists a missing provider as one of its lines.
  if (storeMode === "live" && !stripe && !paypal && !problems) {
    throw new Error(
      `STORE_MODE=live needs a payment provider that takes real money, and none is configured (the test gateway takes none). ` +
        `Set ${liveProviderVariables.join(", or ")} (or leave STORE_MODE unset to run in test mode).`,
    );
  }
  const stripeApiUrl = readUrl(env, "STRIPE_API_URL", ["http", "https"]);
  const stripeJsUrl = readUrl(env, "STRIPE_JS_URL", ["http", "https"]);
  const payPalApiUrl = readUrl(env, "PAYPAL_API_URL", ["http", "https"]);
  const testProviderUrls = readTestProviderUrls(env);
  if (storeMode === "live") {
    requireProviderOrigin("STRIPE_API_URL", stripe && stripeApiUrl, [stripeOrigins.api], testProviderUrls);
    requireProviderOrigin("STRIPE_JS_URL", stripe && stripeJsUrl, [stripeOrigins.js], testProviderUrls);
    requireProviderOrigin("PAYPAL_API_URL", paypal && payPalApiUrl, payPalApiOrigins, testProviderUrls);
  }
  return {
    dataDir: resolve(cwd, env.DATA_DIR || "data"),
    databaseUrl: readUrl(env, "DATABASE_URL", ["postgres", "postgresql"]),
    smtpUrl: readUrl(env, "SMTP_URL", ["smtp", "smtps"]),
    mailFrom,
    publicUrl: new URL(publicUrl).origin,
    storeMode,
    testProviderUrls,
    reviewInvitationDelayDays,
    downloads: readDownloadSettings(env),
    paypal: paypal && {
      clientId: paypal.PAYPAL_CLIENT_ID,
      clientSecret: paypal.PAYPAL_CLIENT_SECRET,
      webhookId: paypal.PAYPAL_WEBHOOK_ID,
      // Test mode talks to PayPal's sandbox unless told otherwise (the tests use a local fake).
      apiUrl: payPalApiUrl ?? (env.STORE_MODE === "live" ? payPalApiUrls.live : payPalApiUrls.sandbox),
    },
    stripe: stripe && {
      secretKey: stripe.STRIPE_SECRET_KEY,
      publishableKey: stripe.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: stripe.STRIPE_WEBHOOK_SECRET,
      apiUrl: stripeApiUrl,
      // Stripe.js must come from Stripe; the tests serve a stand-in from the local fake.
      jsUrl: stripeJsUrl ?? `${stripeOrigins.js}/v3/`,
    },
  };
}
