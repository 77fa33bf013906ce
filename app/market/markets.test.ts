import { describe, expect, it } from "vitest";
import { marketFor, marketForCountryCode, marketForRouteValue, markets } from "./markets";

describe("market table", () => {
  it.each([
    ["FR", "fr", "fr_FR", "fr-FR", "EUR", null],
    ["DE", "de", "de_DE", "de-DE", "EUR", null],
    ["BE", "be", "fr_FR", "fr-BE", "EUR", "FR"],
    ["GB", "gb", "en_GB", "en-GB", "GBP", null],
    ["AT", "at", "de_DE", "de-AT", "EUR", "DE"],
    ["SE", "se", "sv_SE", "sv-SE", "SEK", null],
    ["DK", "dk", "da_DK", "da-DK", "DKK", null],
    ["FI", "fi", "fi_FI", "fi-FI", "EUR", null],
    ["CH", "ch", "ch_CH", "de-CH", "CHF", "DE"],
    ["CH-FR", "ch-fr", "ch_FR", "fr-CH", "CHF", "FR"],
    ["ES", "es", "es_ES", "es-ES", "EUR", null],
    ["IT", "it", "it_IT", "it-IT", "EUR", null],
  ] as const)("%s: /%s, %s, %s, %s, fallback %s", (country, routeValue, locale, tag, currency, fallback) => {
    const market = marketFor(country);
    expect(market).toMatchObject({ routeValue, locale, languageTag: tag, currency, fallbackCountry: fallback });
    expect(marketForRouteValue(routeValue)).toBe(market);
    expect(marketForRouteValue(routeValue.toUpperCase())).toBe(market);
    expect(marketForCountryCode(country.toLowerCase())).toBe(market);
  });

  it("has twelve markets", () => {
    expect(markets).toHaveLength(12);
  });

  it.each(["xx", "", "de_DE", "fr-fr", "ch_fr", "gbr", "<script>"])("refuses route value %j", (value) => {
    expect(marketForRouteValue(value)).toBeUndefined();
  });
});
