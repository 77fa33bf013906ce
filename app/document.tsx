import { lazy, Suspense, useEffect, type ReactNode } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteError, useRouteLoaderData } from "react-router";
import site from "../content/site.json";
import { AnalyticsProvider } from "./analytics/analytics";
import { PageViewBeacon } from "./funnel/page-view-beacon";
import { findRouteEntry } from "./funnel/route-table";
import { alternateLinks, canonicalUrl } from "./funnel/alternate-links";
import { StorefrontContext, type StorefrontState } from "./market/storefront-context";
import { useCspNonce } from "./platform/csp-nonce";
import { readErrorPayload } from "./chrome/error-payload";
import { PlatformWatchers } from "./funnel/platform-watchers";
import { InfoModalProvider } from "./legal/info-modal-context";

/*
 * The document around every page: the root route's layout, outlet and error boundary. The root
 * route module re-exports them; living here, they share the browser's shell chunk with React and
 * the router (vite.config.ts), so the root route's own chunk stays a few bytes.
 */

/** What the root route's loader returns (root.tsx), read here by name so the document does not import the route. */
export interface RootLoaderData {
  storefront: StorefrontState;
  renderedSearch: string;
}

function useDocumentState(): { state: StorefrontState | undefined; routeName: string; layout: string; armAddress: string | undefined } {
  const loaderData = useRouteLoaderData<RootLoaderData>("root");
  const error = useRouteError();
  const leaf = useMatches().at(-1);
  const entry = error ? undefined : findRouteEntry(leaf?.id ?? "");
  const search = loaderData?.renderedSearch ?? "";
  return {
    state: loaderData?.storefront ?? readErrorPayload(error)?.storefront,
    routeName: entry?.name ?? "not-found",
    layout: entry?.layout ?? "default",
    // A split test's arm page may be answered at the test's entry address; it names its own, which
    // the browser takes before the router starts (entry.client.tsx, docs/decisions/0028-split-tests.md).
    // An error page names none: its address is not a route's, and the router starts where it is.
    armAddress: entry && leaf && /[?&]xp=/.test(search) ? leaf.pathname + search : undefined,
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
  const { state, routeName, layout, armAddress } = useDocumentState();
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
      data-address={armAddress}
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

export function App() {
  return <Outlet />;
}

// The not-found page's code is loaded when it is shown, not with every page. A 404 rendered by
// the server keeps its HTML while the code arrives.
const ErrorPage = lazy(() => import("./chrome/error-page").then((module) => ({ default: module.ErrorPage })));

/**
 * Not-found routes, failed guards and any unhandled error all show the not-found page. The error
 * comes from the router's hook: as a re-export, the boundary is not given it as a prop.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const payload = readErrorPayload(error);
  if (!payload) console.error(error);
  return (
    <Suspense fallback={null}>
      <ErrorPage message={payload?.message} />
    </Suspense>
  );
}
