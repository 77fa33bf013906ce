import { layout, route, type RouteConfig, type RouteConfigEntry } from "@react-router/dev/routes";
import { layoutNames, routeEntries } from "./funnel/route-table";

/**
 * Generated from the route table: each row gives its plain route and its twin, grouped under the
 * row's layout. Route ids are the route names, so `useMatches()` tells which named route is shown.
 */
function pageRoutes(layoutName: string): RouteConfigEntry[] {
  return routeEntries
    .filter((entry) => entry.layout === layoutName)
    .map((entry) => route(entry.pattern, `routes/${entry.page}.tsx`, { id: entry.name }));
}

export default [
  ...layoutNames.flatMap((name) => {
    const children = pageRoutes(name);
    if (children.length === 0) return [];
    return name === "none" ? children : [layout(`layouts/${name}.tsx`, { id: `layout-${name}` }, children)];
  }),
  route("legal-texts/:lang", "routes/legal-texts.ts", { id: "legal-texts" }),
  // The test gateway's own pages, and the address every provider sends the buyer back to.
  route("test-gateway/:step/:charge", "routes/test-gateway.tsx", { id: "test-gateway" }),
  route("checkout-return/:payment", "routes/checkout-return.tsx", { id: "checkout-return" }),
  route("webhooks/:provider", "routes/webhooks.ts", { id: "webhooks" }),
  route("storefront-settings", "routes/storefront-settings.ts", { id: "storefront-settings" }),
  // Counts of funnel page views, posted by the page-view beacon (decision 17).
  route("funnel-view", "routes/funnel-view.ts", { id: "funnel-view" }),
  // Published reviews for the market of the path, fetched by pages after load (decision record 0022).
  route("reviews/:locale/:product?", "routes/reviews.ts", { id: "reviews" }),
  // A visitor's own welcome code, issued when the exit-intent dialog's claim section opens.
  route("welcome-code", "routes/welcome-code.ts", { id: "welcome-code" }),
  route("*", "routes/not-found.tsx", { id: "not-found" }),
] satisfies RouteConfig;
