import { findRouteEntry, type RouteName, type TwinRouteName } from "./route-table";

type ParamArgs<N extends RouteName> = N extends TwinRouteName ? [param: string] : [];

/**
 * The path of a named route: `routePath("offer")` is `/offer`, `routePath("take-2", "fr")` is
 * `/take/fr`. The order button and the footer work with names, never with literal paths.
 */
export function routePath<N extends RouteName>(name: N, ...args: ParamArgs<N>): string {
  const entry = findRouteEntry(name);
  if (!entry) throw new Error(`Unknown route name: ${name}`);
  if (entry.param === null) return entry.pattern;
  const [param] = args as string[];
  if (!param) throw new Error(`Route ${name} needs its :${entry.param} parameter`);
  return entry.pattern.replace(`:${entry.param}`, encodeURIComponent(param));
}

/**
 * Appends the current query string to an in-app target, so that UTM and funnel parameters
 * (`src`, `step`) survive the whole funnel. Parameters already on the target win.
 */
export function withQuery(target: string, currentSearch: string): string {
  const carried = new URLSearchParams(currentSearch);
  if ([...carried.keys()].length === 0) return target;
  const hashAt = target.indexOf("#");
  const hash = hashAt === -1 ? "" : target.slice(hashAt);
  const withoutHash = hashAt === -1 ? target : target.slice(0, hashAt);
  const [pathname, ownSearch = ""] = withoutHash.split("?", 2) as [string, string?];
  const merged = new URLSearchParams(ownSearch);
  for (const [key, value] of carried) {
    if (!merged.has(key)) merged.append(key, value);
  }
  return `${pathname}?${merged.toString()}${hash}`;
}
