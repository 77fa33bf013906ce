import { useContext } from "react";
import { isRouteErrorResponse } from "react-router";
import { PageFrame } from "../chrome/page-frame";
import { FunnelLink } from "../funnel/funnel-link";
import { routePath } from "../funnel/paths";
import { StorefrontContext, type StorefrontState } from "../market/storefront-context";
import { useTranslate } from "../market/translate";

/** The message of the locale guard (specification §5); unmatched URLs name their path instead. */
export const notFoundForLocale = "Page not found";

export function notFoundForPath(pathname: string): string {
  return `Page Not Found: ${pathname}`;
}

/** What our own 404s carry; the storefront state is there when the root loader could not run. */
export interface ErrorPayload {
  message: string;
  storefront?: StorefrontState;
}

export function readErrorPayload(error: unknown): ErrorPayload | undefined {
  if (!isRouteErrorResponse(error)) return undefined;
  const payload: unknown = error.data;
  if (typeof payload !== "object" || payload === null || !("message" in payload)) return undefined;
  return typeof payload.message === "string" ? (payload as ErrorPayload) : undefined;
}

function TranslatedErrorPage({ message }: { message: string | undefined }) {
  const t = useTranslate();
  return (
    <PageFrame>
      <title>{t("notFound.documentTitle")}</title>
      <section className="not-found" data-testid="not-found">
        <h1>{t("notFound.title")}</h1>
        {message ? (
          // The status message is the specification's own English wording.
          <p className="not-found__message" lang="en">
            {message}
          </p>
        ) : null}
        <p>{t("notFound.description")}</p>
        <FunnelLink to={routePath("offer")} className="button button--primary" data-testid="try-today">
          {t("notFound.tryToday")}
        </FunnelLink>
      </section>
    </PageFrame>
  );
}

/**
 * Without the visitor's market (only when resolving it failed) there are no translations to
 * show, so the page falls back to the specification's own English wording.
 */
function UntranslatedErrorPage({ message }: { message: string | undefined }) {
  return (
    <main id="main" className="page page--regular">
      <title>Page not found</title>
      <section className="not-found" data-testid="not-found">
        <h1>{message ?? notFoundForLocale}</h1>
        <FunnelLink to={routePath("offer")} className="button button--primary" data-testid="try-today">
          Try today
        </FunnelLink>
      </section>
    </main>
  );
}

export function ErrorPage({ message }: { message: string | undefined }) {
  const state = useContext(StorefrontContext);
  return state ? <TranslatedErrorPage message={message} /> : <UntranslatedErrorPage message={message} />;
}
