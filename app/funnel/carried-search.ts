import { useLocation, useRouteLoaderData } from "react-router";
import { useSyncExternalStore } from "react";

const noSubscription = () => () => undefined;

/** False while React hydrates the server's HTML, true from then on. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * The query string to carry into links. A prerendered page was rendered without the visitor's
 * query, so hydration must first reproduce what the server rendered (`renderedSearch` from the
 * root loader) and only then switch to the real one; React does not patch attributes that differ.
 * When the two are the same (a page opened without a query, or rendered per request), the links
 * are not rendered a second time right after hydration.
 */
export function useCarriedSearch(): string {
  const { search } = useLocation();
  const rootData = useRouteLoaderData<{ renderedSearch: string }>("root");
  // Without root data this is an error page, which is always rendered per request, with the query.
  const rendered = rootData ? rootData.renderedSearch : search;
  return useSyncExternalStore(
    noSubscription,
    () => search,
    () => rendered,
  );
}
