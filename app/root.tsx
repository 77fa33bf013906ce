import { data } from "react-router";
import type { Route } from "./+types/root";
import { geoHeaderNames } from "./market/geo-headers.server";
import { marketForRouteValue } from "./market/markets";
import { storefrontStateContext } from "./market/request-context";
import { resolveStorefrontState } from "./store/storefront-state.server";
import { deferredComponentsLoaded } from "./platform/deferred-component";
import { guardNavigation } from "./funnel/navigation-guard";
import { notFoundForLocale, type ErrorPayload } from "./chrome/error-payload";
import type { RootLoaderData } from "./document";
import "./styles/global.css";

export { App as default, ErrorBoundary, Layout } from "./document";

/**
 * The locale guard runs before any loader: an unsupported locale is a 404, never a silent
 * redirect to a default market. Its error carries the visitor's market so the 404 page is
 * still in their language. Before the first page is rendered, the server holds the code of the
 * parts the browser loads later (only the first request of a process waits for it).
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, params, context }) => {
    await deferredComponentsLoaded();
    if (params.locale !== undefined && !marketForRouteValue(params.locale)) {
      const payload: ErrorPayload = {
        message: notFoundForLocale,
        storefront: resolveStorefrontState(request, undefined),
      };
      throw data(payload, { status: 404 });
    }
    context.set(storefrontStateContext, resolveStorefrontState(request, params.locale));
  },
];

/** Before every client-side navigation: new-build and chunk-failure handling (behaviours §2, §3). */
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [({ request }, next) => guardNavigation(request.url, next)];

export function loader({ request, context }: Route.LoaderArgs): RootLoaderData {
  // Prerendered at build time this is empty; links use it until hydration (see useCarriedSearch).
  return { storefront: context.get(storefrontStateContext), renderedSearch: new URL(request.url).search };
}

/** Pages without a locale differ by the visitor's country: caches must key on the geo header. */
export function headers(): HeadersInit {
  return { Vary: geoHeaderNames().join(", "), "Cache-Control": "private, no-cache" };
}
