/**
 * The market table (docs/architecture.md, 'Markets'): the single source for routing, links,
 * `hreflang`, currency and language. Currency is ours, never the country dataset's.
 */

export const localeCodes = [
  "fr_FR",
  "de_DE",
  "en_GB",
  "sv_SE",
  "da_DK",
  "fi_FI",
  "ch_CH",
  "ch_FR",
  "es_ES",
  "it_IT",
] as const;
export type LocaleCode = (typeof localeCodes)[number];

export type CountryCode = "FR" | "DE" | "BE" | "GB" | "AT" | "SE" | "DK" | "FI" | "CH" | "CH-FR" | "ES" | "IT";
export type CurrencyCode = "EUR" | "GBP" | "SEK" | "DKK" | "CHF";

export interface Market {
  readonly country: CountryCode;
  /** The trailing URL segment: lower case (`ch-fr`). */
  readonly routeValue: string;
  readonly locale: LocaleCode;
  /** BCP 47 tag for `<html lang>`, `hreflang` and `Intl`. */
  readonly languageTag: string;
  readonly currency: CurrencyCode;
  /** The market whose content stands in where this one has no version of its own. */
  readonly fallbackCountry: CountryCode | null;
  /** For dates and times told to buyers: when an order or a withdrawal was received. */
  readonly timeZone: string;
}

export const markets: readonly Market[] = [
  { country: "FR", routeValue: "fr", locale: "fr_FR", languageTag: "fr-FR", currency: "EUR", fallbackCountry: null, timeZone: "Europe/Paris" },
  { country: "DE", routeValue: "de", locale: "de_DE", languageTag: "de-DE", currency: "EUR", fallbackCountry: null, timeZone: "Europe/Berlin" },
  { country: "BE", routeValue: "be", locale: "fr_FR", languageTag: "fr-BE", currency: "EUR", fallbackCountry: "FR", timeZone: "Europe/Brussels" },
  { country: "GB", routeValue: "gb", locale: "en_GB", languageTag: "en-GB", currency: "GBP", fallbackCountry: null, timeZone: "Europe/London" },
  { country: "AT", routeValue: "at", locale: "de_DE", languageTag: "de-AT", currency: "EUR", fallbackCountry: "DE", timeZone: "Europe/Vienna" },
  { country: "SE", routeValue: "se", locale: "sv_SE", languageTag: "sv-SE", currency: "SEK", fallbackCountry: null, timeZone: "Europe/Stockholm" },
  { country: "DK", routeValue: "dk", locale: "da_DK", languageTag: "da-DK", currency: "DKK", fallbackCountry: null, timeZone: "Europe/Copenhagen" },
  { country: "FI", routeValue: "fi", locale: "fi_FI", languageTag: "fi-FI", currency: "EUR", fallbackCountry: null, timeZone: "Europe/Helsinki" },
  { country: "CH", routeValue: "ch", locale: "ch_CH", languageTag: "de-CH", currency: "CHF", fallbackCountry: "DE", timeZone: "Europe/Zurich" },
  { country: "CH-FR", routeValue: "ch-fr", locale: "ch_FR", languageTag: "fr-CH", currency: "CHF", fallbackCountry: "FR", timeZone: "Europe/Zurich" },
  { country: "ES", routeValue: "es", locale: "es_ES", languageTag: "es-ES", currency: "EUR", fallbackCountry: null, timeZone: "Europe/Madrid" },
  { country: "IT", routeValue: "it", locale: "it_IT", languageTag: "it-IT", currency: "EUR", fallbackCountry: null, timeZone: "Europe/Rome" },
];

export const defaultCountry: CountryCode = "DE";
export const defaultLocale: LocaleCode = "de_DE";

const marketsByCountry = new Map(markets.map((market) => [market.country, market]));

export function marketFor(country: CountryCode): Market {
  const market = marketsByCountry.get(country);
  if (!market) throw new Error(`No market row for country ${country}`);
  return market;
}

/** The market a URL segment selects, case-insensitively (`FR`, `ch-fr`); none for anything else. */
export function marketForRouteValue(value: string): Market | undefined {
  const lower = value.toLowerCase();
  return markets.find((market) => market.routeValue === lower);
}

/** The market a country code selects, case-insensitively (`ch-fr`, `gb`); none for anything else. */
export function marketForCountryCode(code: string): Market | undefined {
  const upper = code.trim().toUpperCase();
  return markets.find((market) => market.country === upper);
}

export function isLocaleCode(value: string): value is LocaleCode {
  return (localeCodes as readonly string[]).includes(value);
}
