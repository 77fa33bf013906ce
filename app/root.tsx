import { useEffect, type ReactNode } from "react";
import {
  data,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import site from "../content/site.json";
import { AnalyticsProvider } from "./analytics/analytics";
import { InfoModalProvider } from "./chrome/info-modal-context";
import { PageViewBeacon } from "./funnel/page-view-beacon";
import { findRouteEntry } from "./funnel/route-table";
import { alternateLinks, canonicalUrl } from "./market/alternate-links";
import { geoHeaderNames } from "./market/geo-headers.server";
import { marketForRouteValue } from "./market/markets";
import { storefrontStateContext } from "./market/request-context";
import { StorefrontContext, type StorefrontState } from "./market/storefront-context";
import { resolveStorefrontState } from "./market/storefront-state.server";
import { useCspNonce } from "./platform/csp-nonce";
import { guardNavigation } from "./platform/navigation-guard";
import { PlatformWatchers } from "./platform/platform-watchers";
import { ErrorPage, notFoundForLocale, readErrorPayload, type ErrorPayload } from "./platform/error-page";
import "./styles/global.css";

/**
 * The locale guard runs before any loader: an unsupported locale is a 404, never a silent
 * redirect to a default market. Its error carries the visitor's market so the 404 page is
 * still in their language.
 */
export const middleware: Route.MiddlewareFunction[] = [
  ({ request, params, context }) => {
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

export function loader({ request, context }: Route.LoaderArgs) {
  // Prerendered at build time this is empty; links use it until hydration (see useCarriedSearch).
  return { storefront: context.get(storefrontStateContext), renderedSearch: new URL(request.url).search };
}

/** Pages without a locale differ by the visitor's country: caches must key on the geo header. */
export function headers(): HeadersInit {
  return { Vary: geoHeaderNames().join(", "), "Cache-Control": "private, no-cache" };
}

function useDocumentState(): { state: StorefrontState | undefined; routeName: string; layout: string } {
  const loaderData = useRouteLoaderData<typeof loader>("root");
  const error = useRouteError();
  const leaf = useMatches().at(-1);
  const entry = error ? undefined : findRouteEntry(leaf?.id ?? "");
  return {
    state: loaderData?.storefront ?? readErrorPayload(error)?.storefront,
    routeName: entry?.name ?? "not-found",
    layout: entry?.layout ?? "default",
  };
}

function DocumentHead({ state, routeName }: { state: StorefrontState | undefined; routeName: string }) {
  const entry = findRouteEntry(routeName);
  const pathname = useMatches().at(-1)?.pathname ?? "/";
  return (
    <>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      <Meta />
      <Links />
      {entry && state ? (
        <>
          <link rel="canonical" href={canonicalUrl(pathname, site.siteUrl)} />
          {alternateLinks(entry, site.siteUrl).map((link) => (
            <link key={link.hrefLang} rel="alternate" hrefLang={link.hrefLang} href={link.href} />
          ))}
        </>
      ) : null}
    </>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const { state, routeName, layout } = useDocumentState();
  const nonce = useCspNonce();
  useEffect(() => {
    // Tells browser tests (and anyone debugging) that clicks are now handled by the app.
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    <html
      lang={state?.market.languageTag ?? "de-DE"}
      data-route={routeName}
      data-layout={layout}
      data-country={state?.country}
      data-locale={state?.lang}
    >
      <head>
        <DocumentHead state={state} routeName={routeName} />
      </head>
      <body>
        <StorefrontContext.Provider value={state ?? null}>
          {state ? (
            <InfoModalProvider>
              <AnalyticsProvider>{children}</AnalyticsProvider>
              <PlatformWatchers />
              <PageViewBeacon routeName={routeName} market={state.country} />
            </InfoModalProvider>
          ) : (
            children
          )}
        </StorefrontContext.Provider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** Not-found routes, failed guards and any unhandled error all show the not-found page. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const payload = readErrorPayload(error);
  if (!payload) console.error(error);
  return <ErrorPage message={payload?.message} />;
}
