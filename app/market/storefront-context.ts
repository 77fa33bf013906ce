import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { createContext, useContext } from "react";
import type { CountryCode, LocaleCode, Market } from "./markets";

/** One locale's messages, already parsed from ICU MessageFormat on the server. */
export type Messages = Readonly<Record<string, MessageFormatElement[]>>;

/** What every component may know about the request: resolved on the server, hydrated as data. */
export interface ContactDetails {
  phone: string;
  email: string;
  /** Three lines of postal address. */
  addressLines: string[];
  /** The variant shown in the GB market on landing routes. */
  addressLines2: string[];
}

/** Where the page's images come from; `app/image/providers.ts` builds their addresses. */
export interface ImageSettings {
  provider: "local" | "cloudflare";
  /** Cloudflare Images account hash (only for the cloudflare provider). */
  accountHash?: string;
  /**
   * Cloudflare Images id of each source file (`content/images/cloudflare-ids.json`), only for the
   * cloudflare provider: the page data carries it, so the browser's code never ships the table.
   */
  imageIds?: Readonly<Record<string, string>>;
}

/** Storefront-wide settings from `content/site.json` and `content/contact.json`. */
export interface StorefrontConfig {
  brand: string;
  siteUrl: string;
  helpCentreUrl: string;
  contact: ContactDetails;
  /** Where images come from (`IMAGE_PROVIDER`, `CLOUDFLARE_IMAGES_ACCOUNT_HASH`). */
  images: ImageSettings;
}

/**
 * The state every page shares: `geo`, `lang`, `locale` (here `country`, to keep
 * it apart from `lang`) and `config`, plus the market row and the active locale's messages.
 */
export interface StorefrontState {
  /** The visitor's country from the geo header (DE when unknown). */
  geo: CountryCode;
  /** The country the page is for (route locale, else geo, then the special-offer rule). */
  country: CountryCode;
  /** The locale whose messages are shown. */
  lang: LocaleCode;
  market: Market;
  /**
   * The name of the market's delivery country in its language, from the server's `Intl`: the
   * browser shows it without loading locale data of its own during hydration.
   */
  countryName: string;
  messages: Messages;
  config: StorefrontConfig;
  /** The year the page was rendered in, so that server and client print the same copyright. */
  year: number;
}

export const StorefrontContext = createContext<StorefrontState | null>(null);

export function useStorefront(): StorefrontState {
  const state = useContext(StorefrontContext);
  if (!state) throw new Error("useStorefront() needs the StorefrontContext provider of the root route");
  return state;
}
