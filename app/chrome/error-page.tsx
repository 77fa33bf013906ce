import { useContext } from "react";
import { PageFrame } from "./page-frame";
import { FunnelLink } from "../funnel/funnel-link";
import { routePath } from "../funnel/paths";
import { StorefrontContext } from "../market/storefront-context";
import { useTranslate } from "../market/translate";
import { notFoundForLocale } from "./error-payload";

function TranslatedErrorPage({ message }: { message: string | undefined }) {
  const t = useTranslate();
  return (
    <PageFrame>
      <title>{t("notFound.documentTitle")}</title>
      <section className="not-found" data-testid="not-found">
        <h1>{t("notFound.title")}</h1>
        {message ? (
          // The status message keeps the original storefront's English wording (decision 4).
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
 * show, so the page falls back to the original storefront's English wording (decision 4).
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
