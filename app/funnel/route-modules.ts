import { routeEntryForPath } from "./route-for-path";

interface ManifestRoute {
  parentId?: string;
  module: string;
}

declare global {
  interface Window {
    __reactRouterManifest?: { routes: Record<string, ManifestRoute | undefined> };
  }
}

/**
 * Imports the route modules (page and layouts) a path needs, as React Router would on
 * navigation. Returns false when the router has not discovered the route yet (it learns about
 * the routes of links shortly after they render), so nothing could be loaded.
 */
export async function loadRouteModules(pathname: string): Promise<boolean> {
  const routes = window.__reactRouterManifest?.routes;
  const id = routeEntryForPath(pathname)?.name ?? "not-found";
  const modules: string[] = [];
  for (let route = routes?.[id]; route; route = route.parentId ? routes?.[route.parentId] : undefined) {
    modules.push(route.module);
  }
  if (modules.length === 0) return false;
  await Promise.all(modules.map((module) => import(/* @vite-ignore */ module)));
  return true;
}
