import type { RouteEntry } from "./route-table";
import { markets } from "../market/markets";

export interface AlternateLink {
  hrefLang: string;
  href: string;
}

/** The same page in every market, plus `x-default`: the page without a locale, decided by geo. */
export function alternateLinks(entry: RouteEntry, siteUrl: string): AlternateLink[] {
  if (!entry.hasLocaleTwin) return [];
  const base = entry.plainPath === "/" ? "" : entry.plainPath;
  return [
    ...markets.map((market) => ({ hrefLang: market.languageTag, href: `${siteUrl}${base}/${market.routeValue}` })),
    { hrefLang: "x-default", href: siteUrl + entry.plainPath },
  ];
}

/** The canonical URL is the lower-case path: `/offer/FR` and `/offer/fr` are one page. */
export function canonicalUrl(pathname: string, siteUrl: string): string {
  return siteUrl + pathname.toLowerCase();
}
