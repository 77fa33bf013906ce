import { defaultGeoHeaders } from "./country-resolution";

/**
 * The geo headers to trust, in order. `GEO_COUNTRY_HEADERS` (comma separated) replaces the
 * default list for hosts that put the country elsewhere.
 */
export function geoHeaderNames(env: NodeJS.ProcessEnv = process.env): readonly string[] {
  const configured = env.GEO_COUNTRY_HEADERS?.split(",").map((name) => name.trim()).filter(Boolean);
  return configured && configured.length > 0 ? configured : defaultGeoHeaders;
}
