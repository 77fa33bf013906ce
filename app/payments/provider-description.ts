import methodsFile from "../../content/commerce/payment-methods.json";
import type { Database } from "../db/database.server";
import type { PreflightCheck } from "./preflight-check";
import type { PaymentProvider } from "./provider";
import type { ProviderSettingsFragment } from "./provider-settings";

/**
 * A payment provider as the rest of the store knows it: everything the store needs of it, said by
 * the provider's own folder, so that the composition lists providers and nothing else names one
 * (docs/decisions/0037-providers-describe-themselves.md). Adding a provider is a folder under
 * `payments/` that exports one of these and its part of the checkout (`checkout-part.ts`), a line in
 * `composition/payment-providers.server.ts` and one in `checkout-parts.ts`.
 */
export interface ProviderDescription<Settings = unknown> {
  /** The id the store keeps with each payment (`payments.provider`), and the market methods' `provider`. */
  readonly id: string;
  /** The provider's name in the go-live check's lines. */
  readonly name: string;
  /** Its part of the one settings schema; with its credentials unset, the provider is off. */
  readonly settings: ProviderSettingsFragment<Settings>;
  /** The provider, once its settings are read. */
  create(settings: Settings, store: { db: Database; publicUrl: string }): PaymentProvider;
  /** The origins every page's Content-Security-Policy must allow while it takes payments. */
  contentSecurity?(settings: Settings): ContentSecurityOrigins;
  /** Its lines of the go-live check; reads only, buys nothing. */
  preflight(settings: Settings, context: PreflightContext): Promise<PreflightCheck[]>;
  /** The markets whose content must not offer its methods, and why (`composition/payment-providers.server.test.ts` checks the content). */
  readonly notOfferedIn?: { readonly markets: readonly string[]; readonly why: string };
  /** The go-live line that shows it answered and confirmed the methods the markets offer through it. */
  readonly confirmingCheck: string;
}

export interface ContentSecurityOrigins {
  script: readonly string[];
  frame: readonly string[];
  connect: readonly string[];
}

export interface PreflightContext {
  publicUrl: string;
  storeMode: "test" | "live";
  /** The methods (`card`, `klarna`, ...) each market offers through this provider. */
  methodsByMarket: Readonly<Record<string, readonly string[]>>;
}

type MethodId = keyof typeof methodsFile.methods;

/** The methods each market offers through the provider `id` (`content/commerce/payment-methods.json`). */
export function methodsByMarketOf(id: string): Record<string, readonly string[]> {
  const byMarket = methodsFile.markets as Record<string, readonly MethodId[]>;
  return Object.fromEntries(Object.entries(byMarket).map(([country, offered]) => [country, offered.filter((method) => methodsFile.methods[method].provider === id)]));
}
