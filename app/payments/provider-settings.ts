import type { z } from "zod";

/**
 * A payment provider's part of the store's one settings schema: its environment variables as a
 * zod shape, and how its settings are made of them. A provider's credentials come as a set (all of
 * them, or none: a half-configured provider is a mistake); with none, the provider is off.
 */
export interface ProviderSettingsFragment<Settings = unknown> {
  /** Every variable the provider reads, each parsed (a URL checked as one) by the schema. */
  variables: z.ZodRawShape;
  /** The credentials that switch it on, in the order messages name them. */
  credentials: readonly string[];
  /** Its settings from its parsed variables, once every credential is set; throws naming a variable. */
  read(values: Readonly<Record<string, unknown>>, context: ProviderSettingsContext): Settings;
}

export interface ProviderSettingsContext {
  storeMode: "test" | "live";
  /** `STORE_TEST_PROVIDER_URLS=1`: live mode accepts provider URLs on this machine (the tests' fakes). */
  testProviderUrls: boolean;
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
export function requireProviderOrigin(name: string, value: string | null, origins: readonly string[], context: ProviderSettingsContext): void {
  if (value === null || context.storeMode !== "live") return;
  const url = new URL(value);
  if (context.testProviderUrls && loopback(url)) return;
  if (!url.username && !url.password && origins.includes(url.origin)) return;
  const allowed = context.testProviderUrls ? `${origins.join(" or ")}, or on this machine with STORE_TEST_PROVIDER_URLS=1` : origins.join(" or ");
  throw new Error(`${name} must be the provider's own (${allowed}) with STORE_MODE=live, got '${url.origin}': a test override there would send live payments elsewhere. Unset ${name}.`);
}
