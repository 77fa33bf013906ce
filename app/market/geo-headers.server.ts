import { defaultGeoHeaders } from "./country-resolution";

let trusted: readonly string[] = defaultGeoHeaders;

/**
 * Set once at start from the settings (`GEO_COUNTRY_HEADERS`, comma separated), which replace the
 * default list for hosts that put the country elsewhere.
 */
export function trustGeoHeaders(names: readonly string[]): void {
  trusted = names;
}

/** The geo headers to trust, in order. */
export function geoHeaderNames(): readonly string[] {
  return trusted;
}
