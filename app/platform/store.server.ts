import { join } from "node:path";
import type { Cookie } from "react-router";
import { openDatabase, type Database } from "../db/database.server";
import { operatorCount } from "../admin/operators.server";
import { composeMail } from "../mail/compose.server";
import { startOutboxWorker, type OutboxWorker } from "../mail/outbox.server";
import { createMailTransport, type MailTransport } from "../mail/transport.server";
import { createOrderCookie } from "../orders/order-access.server";
import { loadSigningKey } from "../db/store-secret.server";
import { createPayPalProvider } from "../payments/paypal/paypal-provider.server";
import type { PaymentProvider } from "../payments/provider";
import { createStripeProvider } from "../payments/stripe/stripe-provider.server";
import { TestGateway } from "../payments/test-gateway/test-gateway.server";
import { openFileStorage, type FileStorage } from "../downloads/storage.server";
import { readCommerceSettings, type CommerceSettings } from "./commerce-settings";
import { formatPreflight, preflightFailed, runPreflight } from "./preflight.server";

/**
 * The commerce side of the running server: settings, database, payment provider, mail and the
 * outbox worker. Started once before the server listens, stopped after it stops taking requests.
 */
export interface Store {
  settings: CommerceSettings;
  db: Database;
  databaseKind: "pglite" | "postgres";
  /** The test gateway, whose own authentication and bank pages answer through it; none in live mode. */
  testGateway: TestGateway | null;
  /** Every configured provider by id: payments return to, upsells charge and webhooks come from their own. */
  providers: ReadonlyMap<string, PaymentProvider>;
  signingKey: string;
  orderCookie: Cookie;
  mail: MailTransport;
  outbox: OutboxWorker;
  /** Where digital products' files live (DATA_DIR/files, or S3_URL's bucket). */
  files: FileStorage;
  close(): Promise<void>;
}

let current: Store | undefined;

export function store(): Store {
  if (!current) throw new Error("The store is not started: the server calls startStore() before it listens");
  return current;
}

export async function startStore(env: Record<string, string | undefined> = process.env): Promise<Store> {
  if (current) return current;
  const settings = readCommerceSettings(env);
  const database = await openDatabase(settings.databaseUrl ? { url: settings.databaseUrl } : { dataDir: settings.dataDir });
  if (settings.storeMode === "live") {
    const checks = await runPreflight(settings, { db: database.db, kind: database.kind });
    console.log(`Go-live check:\n${formatPreflight(checks)}`);
    if (preflightFailed(checks)) {
      await database.close();
      throw new Error("STORE_MODE=live does not start while the go-live check fails: the lines marked FAIL above say what to change.");
    }
  }
  const signingKey = await loadSigningKey(database.db);
  const files = await openFileStorage({ s3: settings.downloads.s3, dataDir: settings.dataDir });
  const mail = createMailTransport(settings.smtpUrl, join(settings.dataDir, "mail"));
  const outbox = startOutboxWorker(database.db, async (row) => {
    const message = await composeMail(row, { db: database.db, from: settings.mailFrom, publicUrl: settings.publicUrl, signingKey, downloads: settings.downloads });
    if (!message) return { dropped: "Not sent: nothing left to send by the time it was due" };
    await mail.send(message);
    return { sent: true };
  });
  console.log(
    `Store in ${settings.storeMode} mode; database: ${database.kind === "pglite" ? `embedded, in ${join(settings.dataDir, "pglite")}` : "PostgreSQL"}; e-mail: ${mail.description}; digital files: ${files.description}`,
  );
  if ((await operatorCount(database.db)) === 0) {
    const command = "npm run admin -- add-user you@example.com --role owner";
    console.log(
      `No back-office operator yet. Create one with: ${command}${database.kind === "pglite" ? " (stop this server first: the embedded database allows one process at a time)" : ""}`,
    );
  }
  // Live mode takes real money only: it has no test gateway.
  const testGateway = settings.storeMode === "test" ? new TestGateway(database.db) : null;
  const providers = new Map<string, PaymentProvider>(testGateway ? [[testGateway.id, testGateway]] : []);
  if (settings.paypal) providers.set("paypal", createPayPalProvider({ ...settings.paypal, publicUrl: settings.publicUrl }));
  if (settings.stripe) {
    const { secretKey, webhookSecret, apiUrl } = settings.stripe;
    providers.set("stripe", createStripeProvider({ secretKey, webhookSecret, publicUrl: settings.publicUrl, ...(apiUrl ? { apiUrl } : {}) }));
  }
  current = {
    settings,
    db: database.db,
    databaseKind: database.kind,
    testGateway,
    providers,
    signingKey,
    orderCookie: createOrderCookie(signingKey),
    mail,
    outbox,
    files,
    async close() {
      await outbox.stop();
      mail.close();
      files.close();
      await database.close();
      current = undefined;
    },
  };
  return current;
}

export async function stopStore(): Promise<void> {
  await current?.close();
}
