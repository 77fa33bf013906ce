import { resolve } from "node:path";
import { z } from "zod";
import contact from "../../content/contact.json";
import site from "../../content/site.json";
import type { S3Settings } from "../downloads/storage.server";
import { urlReader, urlVariable, variable, wholeNumberVariable } from "../platform/settings-variable";

/**
 * The store's commerce side of the one settings schema (`settings.server.ts` composes it with the
 * pages', the server's and the payment providers' parts): each variable, parsed once at start, and a
 * bad one stops the server naming the variable and the form it expects.
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
  /** Digital delivery: where the files live and how long a download link works (docs/decisions/0027-digital-delivery.md). */
  downloads: DownloadSettings;
  /** The settings of each payment provider that is configured, by its id (a provider's own shape). */
  providers: Readonly<Record<string, unknown>>;
}

export interface DownloadSettings {
  /** S3-compatible object storage; without it the files live under `dataDir/files/`. */
  s3: S3Settings | null;
  linkDays: number;
  linkMaxDownloads: number;
  /** The largest file an operator may upload. */
  fileMaxBytes: number;
}

const mailboxPattern = /^(?:[^<>@\s]+(?: [^<>@\s]+)* <)?[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>?$/;

const s3Form = "https://<access key>:<secret key>@<endpoint host>/<bucket>?region=<region>";

/**
 * `S3_URL` holds everything the object storage needs in one setting: the endpoint, the bucket as
 * the path's one segment, the keys as the user part (percent-encoded), the region as a query.
 */
export function readS3Url(env: { S3_URL?: string | undefined }): S3Settings | null {
  const value = urlReader("S3_URL", ["http", "https"])(env.S3_URL);
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

function readStoreMode(value: string | undefined): "test" | "live" {
  const storeMode = value || "test";
  if (storeMode !== "test" && storeMode !== "live") throw new Error(`STORE_MODE must be 'test' or 'live', got '${storeMode}'.`);
  return storeMode;
}

function readMailFrom(value: string | undefined): string {
  const mailFrom = value || `${site.brand} <${contact.email}>`;
  if (!mailboxPattern.test(mailFrom)) throw new Error(`MAIL_FROM must be an e-mail address, optionally with a name ('Vitanor <orders@example.com>'), got '${mailFrom}'.`);
  return mailFrom;
}

function readTestProviderUrls(value: string | undefined): boolean {
  const setting = value || "";
  if (setting !== "" && setting !== "1") throw new Error(`STORE_TEST_PROVIDER_URLS must be '1' or unset, got '${setting}'.`);
  return setting === "1";
}

/** The commerce side's variables, as the one settings schema composes them. */
export const commerceVariables = {
  STORE_MODE: variable(readStoreMode),
  STORE_TEST_PROVIDER_URLS: variable(readTestProviderUrls),
  DATA_DIR: z.string().optional(),
  DATABASE_URL: urlVariable("DATABASE_URL", ["postgres", "postgresql"]),
  SMTP_URL: urlVariable("SMTP_URL", ["smtp", "smtps"]),
  MAIL_FROM: variable(readMailFrom),
  PUBLIC_URL: urlVariable("PUBLIC_URL", ["http", "https"]),
  REVIEW_INVITATION_DELAY_DAYS: wholeNumberVariable("REVIEW_INVITATION_DELAY_DAYS", 7, 90),
  S3_URL: variable((value) => readS3Url({ S3_URL: value })),
  DOWNLOAD_LINK_DAYS: wholeNumberVariable("DOWNLOAD_LINK_DAYS", 30, 365, 1),
  DOWNLOAD_LINK_MAX_DOWNLOADS: wholeNumberVariable("DOWNLOAD_LINK_MAX_DOWNLOADS", 10, 1000, 1),
  DOWNLOAD_FILE_MAX_MB: wholeNumberVariable("DOWNLOAD_FILE_MAX_MB", 200, 4096, 1),
};

type CommerceValues = z.output<z.ZodObject<typeof commerceVariables>>;

/** The commerce settings from their parsed variables; the providers' are added by the schema. */
export function commerceSettingsOf(values: CommerceValues, port: number, cwd: string): Omit<CommerceSettings, "providers"> {
  return {
    dataDir: resolve(cwd, values.DATA_DIR || "data"),
    databaseUrl: values.DATABASE_URL,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    publicUrl: new URL(values.PUBLIC_URL ?? `http://localhost:${port}`).origin,
    storeMode: values.STORE_MODE,
    testProviderUrls: values.STORE_TEST_PROVIDER_URLS,
    reviewInvitationDelayDays: values.REVIEW_INVITATION_DELAY_DAYS,
    downloads: {
      s3: values.S3_URL,
      linkDays: values.DOWNLOAD_LINK_DAYS,
      linkMaxDownloads: values.DOWNLOAD_LINK_MAX_DOWNLOADS,
      fileMaxBytes: values.DOWNLOAD_FILE_MAX_MB * 1024 * 1024,
    },
  };
}
