import { useParams } from "react-router";
import { routePath } from "./paths";
import { findRouteEntry, twinName, type PlainRouteName } from "./route-table";

/**
 * The path of a plain route as seen from the current page: on a page with a locale the
 * locale twin (`/upsell/fr`), elsewhere the plain route (`/upsell`).
 */
export function useLocalizedPath(name: PlainRouteName): string {
  const { locale } = useParams();
  if (locale && findRouteEntry(name)?.hasLocaleTwin) return routePath(twinName(name), locale.toLowerCase());
  return routePath(name);
}
