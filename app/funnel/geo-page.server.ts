import { matchPath } from "react-router";
import { routeEntryForPath } from "./route-for-path";
import type { RouteEntry } from "./route-table";
import { alpha2ByCountryName } from "../market/countries.server";
import { geoCountry } from "../market/country-resolution";
import { geoHeaderNames } from "../market/geo-headers.server";
import { marketForRouteValue } from "../market/markets";

/** For the server's page cache: a route without a locale, and the market its visitor's geo header names. */
export interface GeoPage {
  route: string;
  geo: string;
  geoHeaders: readonly string[];
}

const maxRemembered = 2048;
const routeOfPath = new Map<string, RouteEntry | null>();

function plainRouteOf(pathname: string): RouteEntry | null {
  let entry = routeOfPath.get(pathname);
  if (entry === undefined) {
    const found = routeEntryForPath(pathname);
    entry = found && found.param === null ? found : null;
    if (routeOfPath.size >= maxRemembered) routeOfPath.clear();
    routeOfPath.set(pathname, entry);
  }
  return entry;
}

/**
 * The route a path without a locale renders and the market country its geo headers resolve to
 * (the same resolution the page itself makes), or undefined for any other path. Together with
 * the path and the query, that is everything such a page depends on.
 */
export function geoPageOf(pathname: string, header: (name: string) => string | undefined): GeoPage | undefined {
  const entry = plainRouteOf(pathname);
  if (!entry) return undefined;
  const geoHeaders = geoHeaderNames();
  const headers = new Headers();
  for (const name of geoHeaders) {
    const value = header(name);
    if (value !== undefined) headers.set(name, value);
  }
  return { route: entry.name, geo: geoCountry(headers, geoHeaders, alpha2ByCountryName), geoHeaders };
}

/**
 * The same for a path with a locale (`/offer2/fr`): its route, by its plain name, and the market
 * its locale names, which no header changes. Such pages are prerendered; the page cache keeps
 * one only as a split test's arm page answered at the test's entry address (decision 28).
 */
export function localePageOf(pathname: string): GeoPage | undefined {
  let page = localePageOfPath.get(pathname);
  if (page === undefined) {
    page = findLocalePage(pathname) ?? null;
    if (localePageOfPath.size >= maxRemembered) localePageOfPath.clear();
    localePageOfPath.set(pathname, page);
  }
  return page ?? undefined;
}

const localePageOfPath = new Map<string, GeoPage | null>();

function findLocalePage(pathname: string): GeoPage | undefined {
  const entry = routeEntryForPath(pathname);
  if (entry?.param !== "locale") return undefined;
  const locale = matchPath({ path: entry.pattern, caseSensitive: false, end: true }, pathname)?.params.locale;
  const market = locale === undefined ? undefined : marketForRouteValue(locale);
  if (!market) return undefined;
  return { route: entry.plainPath === "/" ? "index" : entry.plainPath.slice(1), geo: market.country, geoHeaders: [] };
}
