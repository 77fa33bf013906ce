import { useMemo } from "react";
import { useLoaderData } from "react-router";
import type { Route } from "./+types/thank-you";
import { pricedCatalog } from "../catalog/catalog.server";
import { GuaranteeNote } from "../catalog/offer-sections";
import { PageIntro } from "../chrome/page-intro";
import { useHydrated } from "../funnel/carried-search";
import { readChoices } from "../funnel/choices";
import { funnelTextsFor } from "../funnel/content.server";
import { Money } from "../market/money-text";
import { storefrontStateContext } from "../market/request-context";
import { useTranslate } from "../market/translate";

export function loader({ context }: Route.LoaderArgs) {
  const { market, lang } = context.get(storefrontStateContext);
  return { catalog: pricedCatalog(market.currency, new Date()), texts: funnelTextsFor(lang).thankYou };
}

/** What the visitor chose in this session (kept in the browser), the next steps, the guarantee. */
export default function ThankYouPage() {
  const { catalog, texts } = useLoaderData<typeof loader>();
  const t = useTranslate();
  const hydrated = useHydrated();
  const chosen = useMemo(
    () => (hydrated ? readChoices().filter((choice) => choice.accepted && catalog[choice.bundleId]) : []),
    [hydrated, catalog],
  );
  return (
    <PageIntro messagePrefix="pages.thankYou">
      <section className="thank-you__chosen" aria-labelledby="chosen-title" data-testid="chosen">
        <h2 id="chosen-title">{texts.chosenTitle}</h2>
        {chosen.length === 0 ? (
          <p>{texts.nothingChosen}</p>
        ) : (
          <ul>
            {chosen.map(({ bundleId }) => {
              const line = catalog[bundleId];
              return line ? (
                <li key={bundleId} data-testid="chosen-item">
                  {line.productName} – {t("products.units", { units: line.units })}: <Money minor={line.priceMinor} currency={line.currency} />
                </li>
              ) : null;
            })}
          </ul>
        )}
      </section>
      <section aria-labelledby="next-steps-title">
        <h2 id="next-steps-title">{texts.nextStepsTitle}</h2>
        <ol>
          {texts.nextSteps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </section>
      <GuaranteeNote title={texts.guaranteeTitle} text={texts.guaranteeText} />
    </PageIntro>
  );
}
