import { defaultCountry, marketForCountryCode, marketForRouteValue, type CountryCode } from "./markets";

/** Request headers that carry the visitor's country, in order of precedence (decision 41). */
export const defaultGeoHeaders = ["CF-IPCountry", "X-Vercel-IP-Country", "CloudFront-Viewer-Country", "X-Country-Code"];

/** Paths whose offer is only for French-speaking visitors (decision 41). */
const specialOfferSegments = ["v1ip", "v1ip-summary", "offerip", "v7", "offerv7"];

function isSpecialOfferPath(pathname: string): boolean {
  const firstSegment = pathname.split("/")[1]?.toLowerCase() ?? "";
  return specialOfferSegments.includes(firstSegment);
}

/** Looks up a country written as a name ("France"); server-side, over the country dataset. */
export type CountryNameLookup = (name: string) => string | undefined;

const countryCodeShape = /^\s*[a-z]{2}(-[a-z]{2})?\s*$/i;

/** The market of one geo header value: a country code, or a country name when a lookup is given. */
function countryOfHeaderValue(value: string, lookupName: CountryNameLookup | undefined): CountryCode {
  // Garbage, markup or very long values simply match no market.
  if (countryCodeShape.test(value)) return marketForCountryCode(value)?.country ?? defaultCountry;
  const alpha2 = lookupName?.(value);
  return (alpha2 && marketForCountryCode(alpha2)?.country) || defaultCountry;
}

/** The country a geo header names; headers are read in order and the first present one decides. */
export function geoCountry(
  headers: Headers,
  headerNames: readonly string[],
  lookupName?: CountryNameLookup,
): CountryCode {
  for (const name of headerNames) {
    const value = headers.get(name);
    if (value !== null) return countryOfHeaderValue(value, lookupName);
  }
  return defaultCountry;
}

/** On special-offer paths Switzerland becomes CH-FR, Belgium stays, everyone else gets France. */
export function applySpecialOfferRule(country: CountryCode, pathname: string): CountryCode {
  if (!isSpecialOfferPath(pathname)) return country;
  if (country === "CH" || country === "CH-FR") return "CH-FR";
  if (country === "BE") return "BE";
  return "FR";
}

export interface CountryResolution {
  /** The country the geo header gave (DE when none). */
  geo: CountryCode;
  /** The country the page is for: the route's locale, else geo, then the special-offer rule. */
  country: CountryCode;
}

export function resolveCountry(input: {
  localeParam: string | undefined;
  pathname: string;
  headers: Headers;
  geoHeaders?: readonly string[];
  lookupCountryName?: CountryNameLookup;
}): CountryResolution {
  const geo = geoCountry(input.headers, input.geoHeaders ?? defaultGeoHeaders, input.lookupCountryName);
  const fromRoute = input.localeParam === undefined ? undefined : marketForRouteValue(input.localeParam)?.country;
  return { geo, country: applySpecialOfferRule(fromRoute ?? geo, input.pathname) };
}
