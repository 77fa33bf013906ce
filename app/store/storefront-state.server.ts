import contact from "../../content/contact.json";
import site from "../../content/site.json";
import { alpha2ByCountryName } from "../market/countries.server";
import { resolveCountry } from "../market/country-resolution";
import { settings } from "./settings.server";
import { geoHeaderNames } from "../market/geo-headers.server";
import { marketFor, type Market } from "../market/markets";
import { messagesFor, usableLocale } from "../market/messages.server";
import type { StorefrontState } from "../market/storefront-context";

/** The market's delivery country (`CH` for both Swiss markets), named in the market's language. */
export function countryNameFor(market: Market): string {
  const region = market.country.slice(0, 2);
  return new Intl.DisplayNames([market.languageTag], { type: "region" }).of(region) ?? region;
}

/** Everything the page needs to know about the visitor's market, decided once per request. */
export function resolveStorefrontState(request: Request, localeParam: string | undefined): StorefrontState {
  const { geo, country } = resolveCountry({
    localeParam,
    pathname: new URL(request.url).pathname,
    headers: request.headers,
    geoHeaders: geoHeaderNames(),
    lookupCountryName: alpha2ByCountryName,
  });
  const market = marketFor(country);
  const lang = usableLocale(market.locale);
  return {
    geo,
    country,
    lang,
    market,
    countryName: countryNameFor(market),
    messages: messagesFor(lang),
    config: { ...site, contact, images: settings().images },
    year: new Date().getFullYear(),
  };
}
