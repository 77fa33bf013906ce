import { parse } from "@formatjs/icu-messageformat-parser";
import type { ReactNode } from "react";
import { marketFor, type CountryCode } from "../market/markets";
import { StorefrontContext, type Messages, type StorefrontState } from "../market/storefront-context";
import { countryNameFor } from "../store/storefront-state.server";
import contact from "../../content/contact.json";
import site from "../../content/site.json";

const messageFiles = import.meta.glob<Record<string, string>>("../../content/messages/*.json", {
  eager: true,
  import: "default",
});

/** A storefront state for component tests, with the real messages of the market's locale. */
export function storefrontState(country: CountryCode = "GB"): StorefrontState {
  const market = marketFor(country);
  const source = messageFiles[`../../content/messages/${market.locale}.json`] ?? {};
  const messages: Messages = Object.fromEntries(Object.entries(source).map(([key, value]) => [key, parse(value)]));
  return {
    geo: country,
    country,
    lang: market.locale,
    market,
    countryName: countryNameFor(market),
    messages,
    config: { ...site, contact, images: { provider: "local" } },
    year: 2026,
  };
}

export function WithStorefront({ country = "GB", children }: { country?: CountryCode; children: ReactNode }) {
  return <StorefrontContext.Provider value={storefrontState(country)}>{children}</StorefrontContext.Provider>;
}
