import { sql } from "drizzle-orm";
import { digitalProducts } from "../catalog/catalog.server";
import { openDatabase, type Database } from "../db/database.server";
import { filesByProduct, productsWithoutFile } from "../downloads/digital-files.server";
import { openFileStorage, type FileStorage } from "../downloads/storage.server";
import { createMailTransport } from "../mail/transport.server";
import { localeCodes, markets } from "../market/markets";
import { paymentMethodsFor } from "../orders/commerce-content.server";
import { paymentSetupOf } from "../payments/payment-setup";
import { failed, passed, warned, type PreflightCheck } from "../payments/preflight-check";
import { methodsByMarketOf, type ProviderDescription } from "../payments/provider-description";
import type { CommerceSettings } from "../store/commerce-settings";
import type { ConversionSettings } from "../conversions/conversion-settings";
import { conversionChecks } from "../conversions/conversions-preflight.server";
import { paymentProviders } from "./payment-providers.server";

/**
 * The go-live check: everything that would lose money or orders once the store takes
 * real payments, checked without buying anything. `npm run preflight` prints it; `STORE_MODE=live`
 * runs it at start and refuses to start on a failure.
 */

/** How the check reaches the database: the running store's, or one it opens (and migrates) itself. */
export type PreflightDatabase = { db: Database; kind: "pglite" | "postgres" } | null;

function modeCheck(settings: CommerceSettings): PreflightCheck {
  if (settings.storeMode === "live") return passed("Store mode", "live: orders are real and paid for");
  return failed("Store mode", "test: orders are test orders paid through the test gateway", "Set STORE_MODE=live.");
}

/** Only tests reach the providers' fakes on this machine in live mode: a live store never starts so. */
function testProviderUrlsCheck(): PreflightCheck {
  return failed(
    "Provider addresses",
    "STORE_TEST_PROVIDER_URLS is set: Stripe and PayPal may be reached on this machine, where only the tests' fakes answer",
    "Unset STORE_TEST_PROVIDER_URLS, STRIPE_API_URL, STRIPE_JS_URL, PAYPAL_API_URL, META_API_URL and GA4_API_URL.",
  );
}

function publicUrlCheck(settings: CommerceSettings): PreflightCheck {
  if (settings.publicUrl.startsWith("https://")) return passed("Public address", settings.publicUrl);
  return failed("Public address", `${settings.publicUrl} is not https: payment pages, cookies and links in e-mails need it`, "Set PUBLIC_URL to the https:// address buyers use.");
}

/**
 * With the live providers alone (no test gateway), every market must have a way to pay, counting
 * only the providers that answered: a key nobody has tried says nothing about a market.
 */
function marketsCheck(settings: CommerceSettings, providerChecks: readonly PreflightCheck[]): PreflightCheck {
  const name = "Payment methods per market";
  const configured = paymentProviders.filter((provider) => settings.providers[provider.id] !== undefined);
  if (configured.length === 0) return failed(name, "no provider is configured, so no market has a way to pay", "Configure Stripe (PayPal is not offered in every market): see the Payment provider line.");
  const answered = configured.filter((provider) => providerChecks.some((check) => check.name === provider.confirmingCheck && check.status === "ok"));
  const namesOf = (providers: readonly ProviderDescription[]) => providers.map((provider) => provider.name).join(" and ");
  if (answered.length === 0) {
    const names = namesOf(configured);
    return failed(name, `${names} ${configured.length === 1 ? "has" : "have"} not confirmed ${configured.length === 1 ? "its" : "their"} payment methods (see above), so no market's way to pay is known to work`, "Fix the provider's lines above, then run the check again.");
  }
  const unpaid = markets.filter((market) => paymentMethodsFor(market, paymentSetupOf(answered.map((provider) => provider.id))).length === 0).map((market) => market.country);
  if (unpaid.length === 0) return passed(name, `every market has a way to pay, confirmed by ${namesOf(answered)}`);
  return failed(name, `no way to pay in ${unpaid.join(", ")}`, "Configure Stripe (PayPal is not offered in every market), or fix its lines above.");
}

async function mailCheck(settings: CommerceSettings): Promise<PreflightCheck> {
  const name = "E-mail";
  if (!settings.smtpUrl) return failed(name, "no SMTP_URL: confirmations and receipts are only written to files", "Set SMTP_URL to the SMTP server the store sends through.");
  const transport = createMailTransport(settings.smtpUrl, settings.dataDir);
  try {
    await transport.verify();
    return passed(name, `${transport.description} answers and takes the credentials`);
  } catch {
    return failed(name, `${transport.description} does not answer or refuses the credentials`, "Check SMTP_URL's host, port, user and password.");
  } finally {
    transport.close();
  }
}

const digitalName = "Digital products' files";

/** The database answers (migrated by opening it), and every digital product has its file for every market's language. */
async function databaseChecks(settings: CommerceSettings, running: PreflightDatabase): Promise<PreflightCheck[]> {
  const name = "Database";
  let opened: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    const database = running ?? (opened = await openDatabase(settings.databaseUrl ? { url: settings.databaseUrl } : { dataDir: settings.dataDir }));
    await database.db.execute(sql`select 1`);
    const answer = passed(name, `${database.kind === "postgres" ? "PostgreSQL" : "the embedded database"} answers, its migrations applied`);
    const files = await digitalCheck(database.db, settings);
    if (database.kind === "postgres") return [answer, files, ...storageCheck(settings)];
    return [
      answer,
      warned("Database kind", "the embedded database serves one process and is backed up by copying DATA_DIR with the server stopped", "Set DATABASE_URL to a PostgreSQL server for more than one instance and online backups."),
      files,
    ];
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : "unknown error";
    return [
      failed(name, `cannot be opened: ${reason}`, "Check DATABASE_URL (or stop the server that holds the embedded database)."),
      failed(digitalName, "cannot be checked without the database", "Fix the database first."),
    ];
  } finally {
    await opened?.close();
  }
}

/**
 * A digital product sold without its file would reach its buyer as nothing but a receipt: each
 * product needs a file for every market's language, and each current file's bytes must be in the
 * storage, at the size recorded (the database alone says nothing of a folder lost or half copied).
 */
async function digitalCheck(db: Database, settings: CommerceSettings): Promise<PreflightCheck> {
  if (digitalProducts().length === 0) return passed(digitalName, "no digital product offered");
  const missing = await productsWithoutFile(db);
  if (missing.length > 0) {
    const named = missing.map((product) => `${product.name} (${product.id}${product.missingLocales.length < localeCodes.length ? `: ${product.missingLocales.join(", ")}` : ""})`);
    return failed(
      digitalName,
      `no file for ${named.join("; ")}: its buyers would get nothing`,
      `Upload each file in the back office (Files) or with npm run admin -- add-file ${missing[0]?.id ?? "<product id>"} <file> (without --locale for the file every language gets).`,
    );
  }
  let storage: FileStorage | undefined;
  try {
    storage = await openFileStorage({ s3: settings.downloads.s3, dataDir: settings.dataDir });
    const problems: string[] = [];
    for (const product of await filesByProduct(db)) {
      for (const file of product.files.filter((candidate) => candidate.current)) {
        const size = await storage.size(file.storageKey);
        const name = `${file.fileName} (${product.productId})`;
        if (size === null) problems.push(`${name} is missing from ${storage.description}`);
        else if (size !== file.bytes) problems.push(`${name} has ${size} bytes instead of ${file.bytes}`);
      }
    }
    if (problems.length === 0) return passed(digitalName, `every digital product has its file for every market, each one in ${storage.description}`);
    return failed(digitalName, `${problems.join("; ")}: its buyers would get nothing`, "Upload each of these files again in the back office (Files) or with npm run admin -- add-file, or restore the storage from its backup.");
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : "unknown error";
    return failed(digitalName, `the file storage does not answer: ${reason}`, "Check S3_URL (or DATA_DIR's files folder).");
  } finally {
    storage?.close();
  }
}

/** Files on this instance's disk are no use to another instance behind the same database. */
function storageCheck(settings: CommerceSettings): PreflightCheck[] {
  if (!settings.databaseUrl || settings.downloads.s3 || digitalProducts().length === 0) return [];
  return [
    warned(
      "File storage",
      `the files are in ${settings.dataDir}/files on this instance: other instances cannot read this instance's files`,
      "Set S3_URL to a bucket that every instance reads when more than one instance serves the store.",
    ),
  ];
}

export async function runPreflight(settings: CommerceSettings & { conversions?: ConversionSettings }, running: PreflightDatabase = null): Promise<PreflightCheck[]> {
  const checks: PreflightCheck[] = [modeCheck(settings), publicUrlCheck(settings), ...(settings.testProviderUrls ? [testProviderUrlsCheck()] : [])];
  const configured = paymentProviders.filter((provider) => settings.providers[provider.id] !== undefined);
  if (configured.length === 0) {
    checks.push(failed("Payment provider", "neither Stripe nor PayPal is configured", "Set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET (and PayPal's three settings to offer it)."));
  }
  for (const provider of configured) {
    const context = { publicUrl: settings.publicUrl, storeMode: settings.storeMode, methodsByMarket: methodsByMarketOf(provider.id) };
    checks.push(...(await provider.preflight(settings.providers[provider.id], context)));
  }
  checks.push(marketsCheck(settings, checks), await mailCheck(settings), ...(await databaseChecks(settings, running)));
  if (settings.conversions) checks.push(...(await conversionChecks(settings.conversions, settings.publicUrl)));
  return checks;
}

const marks = { ok: "ok  ", warn: "WARN", fail: "FAIL" } as const;

/** One line per check, and the fix under each problem. */
export function formatPreflight(checks: readonly PreflightCheck[]): string {
  const width = Math.max(...checks.map((check) => check.name.length));
  return checks
    .map((check) => `${marks[check.status]}  ${check.name.padEnd(width)}  ${check.detail}${check.fix ? `\n      ${" ".repeat(width)}  → ${check.fix}` : ""}`)
    .join("\n");
}

export function preflightFailed(checks: readonly PreflightCheck[]): boolean {
  return checks.some((check) => check.status === "fail");
}
