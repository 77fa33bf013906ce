import type { Cookie } from "react-router";
import type { Database } from "../db/database.server";
import type { FileStorage } from "../downloads/storage.server";
import type { OutboxWorker } from "../mail/outbox.server";
import type { MailTransport } from "../mail/transport.server";
import type { PaymentProvider } from "../payments/provider";
import type { TestGateway } from "../payments/test-gateway/test-gateway.server";
import type { ConversionSettings } from "../conversions/conversion-settings";
import type { CommerceSettings } from "./commerce-settings";

/**
 * The commerce side of the running server as the pages see it: settings, database, payment
 * providers, mail and the outbox worker. The composition at the top (`app/composition/`) builds it
 * once before the server listens and installs it here; pages and the back office only read it.
 */
export interface Store {
  /** With the ad platforms' settings: the checkout keeps for a consenting buyer only what a configured platform takes. */
  settings: CommerceSettings & { conversions: ConversionSettings };
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

export function installedStore(): Store | undefined {
  return current;
}

/** Called by the composition when the store has started (a store) and after it has stopped (undefined). */
export function installStore(started: Store | undefined): void {
  current = started;
}
