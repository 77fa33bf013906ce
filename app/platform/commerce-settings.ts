import { resolve } from "node:path";
import contact from "../../content/contact.json";
import site from "../../content/site.json";

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

/** The payment providers that can take real money; none exists yet besides the test gateway. */
const liveProviderVariables = ["STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET", "PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID"];

export function readCommerceSettings(env: Env, cwd: string = process.cwd()): CommerceSettings {
  const storeMode = env.STORE_MODE || "test";
  if (storeMode !== "test" && storeMode !== "live") throw new Error(`STORE_MODE must be 'test' or 'live', got '${storeMode}'.`);
  if (storeMode === "live") {
    throw new Error(
      `STORE_MODE=live needs a payment provider that takes real money, and only the test gateway is configured. ` +
        `Set ${liveProviderVariables.join(", or ")} (or leave STORE_MODE unset to run in test mode).`,
    );
  }
  const mailFrom = env.MAIL_FROM || `${site.brand} <${contact.email}>`;
  if (!mailboxPattern.test(mailFrom)) throw new Error(`MAIL_FROM must be an e-mail address, optionally with a name ('Vitanor <orders@example.com>'), got '${mailFrom}'.`);
  const publicUrl = readUrl(env, "PUBLIC_URL", ["http", "https"]) ?? `http://localhost:${env.PORT || "3000"}`;
  return {
    dataDir: resolve(cwd, env.DATA_DIR || "data"),
    databaseUrl: readUrl(env, "DATABASE_URL", ["postgres", "postgresql"]),
    smtpUrl: readUrl(env, "SMTP_URL", ["smtp", "smtps"]),
    mailFrom,
    publicUrl: new URL(publicUrl).origin,
    storeMode,
  };
}
