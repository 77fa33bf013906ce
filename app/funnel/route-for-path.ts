import { matchPath } from "react-router";
import { routeEntries, type RouteEntry } from "./route-table";

// Plain paths before patterns with a parameter, as the router ranks them: `/offer` is the
// `offer` route, not `index-2` with the locale "offer".
const byRank = [...routeEntries].sort((a, b) => Number(a.param !== null) - Number(b.param !== null));

/** The named route a path belongs to, for loaders (which are not told their route id). */
export function routeEntryForPath(pathname: string): RouteEntry | undefined {
  return byRank.find((entry) => matchPath({ path: entry.pattern, caseSensitive: false, end: true }, pathname));
}
