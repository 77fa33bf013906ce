import { join } from "node:path";
import { openDatabase } from "../db/database.server";
import { flushExposures } from "../experiments/experiments.server";
import { operatorCount } from "../admin/operators.server";
import { composeMail } from "../emails/compose.server";
import { conversionsAtOutbox } from "../conversions/conversions.server";
import { startDeviceDataSweep } from "../conversions/record.server";
import { startOutboxWorker } from "../mail/outbox.server";
import { createMailTransport } from "../mail/transport.server";
import { createOrderCookie } from "../orders/order-access.server";
import { pollPendingRefunds } from "../orders/refund-service.server";
import { startPaymentReconciler } from "../orders/payment-attempts.server";
import { loadSigningKey } from "../db/store-secret.server";
import type { PaymentProvider } from "../payments/provider";
import { TestGateway } from "../payments/test-gateway/test-gateway.server";
import { openFileStorage } from "../downloads/storage.server";
import { installedStore, installStore, type Store } from "../store/store.server";
import { formatPreflight, preflightFailed, runPreflight } from "./preflight.server";
import { paymentProviders } from "./payment-providers.server";
import { checkStartupSettings } from "./settings.server";

/** A refund still pending this long is asked about, every so often. */
const pendingRefundAgeMs = 10 * 60_000;
const pendingRefundPollMs = 15 * 60_000;

/** Opens the database, runs the go-live check in live mode, wires providers, mail and the outbox, and installs the store the pages read. */
export async function startStore(): Promise<Store> {
  const running = installedStore();
  if (running) return running;
  const settings = checkStartupSettings();
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
    // Purchases reported to the ad platforms share the outbox with the e-mails that mark their moment.
    const conversion = await conversionsAtOutbox(row, { db: database.db, settings: settings.conversions });
    if (conversion) return conversion;
    const message = await composeMail(row, { db: database.db, from: settings.mailFrom, publicUrl: settings.publicUrl, signingKey, downloads: settings.downloads });
    if (!message) return { dropped: "Not sent: nothing left to send by the time it was due" };
    await mail.send(message);
    return { sent: true };
  });
  // What was kept for the ad platforms and never sent is cleared after seven days, orders or not.
  const stopDeviceDataSweep = startDeviceDataSweep(database.db);
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
  for (const provider of paymentProviders) {
    const own = settings.providers[provider.id];
    if (own !== undefined) providers.set(provider.id, provider.create(own, { db: database.db, publicUrl: settings.publicUrl }));
  }
  // PayPal tells of a pending refund that fails by no event: the store asks. Applying an answer
  // twice changes nothing, so every instance may ask.
  const refundPoll = setInterval(() => {
    pollPendingRefunds(database.db, providers, { olderThanMs: pendingRefundAgeMs }).catch((error: unknown) => console.error(`Asking about pending refunds failed: ${error instanceof Error ? error.message : String(error)}`));
  }, pendingRefundPollMs);
  refundPoll.unref();
  // Attempts left open (a lost answer, a buyer who never came back) are asked about; every instance runs it, one attempt each.
  const reconciler = startPaymentReconciler(database.db, (id) => providers.get(id));
  const started: Store = {
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
      clearInterval(refundPoll);
      stopDeviceDataSweep();
      await reconciler.stop();
      await outbox.stop();
      // Split tests' assignments still counted in memory are written before the database closes.
      await flushExposures(database.db).catch((error: unknown) => console.error(error));
      mail.close();
      files.close();
      await database.close();
      installStore(undefined);
    },
  };
  installStore(started);
  return started;
}

export async function stopStore(): Promise<void> {
  await installedStore()?.close();
}
