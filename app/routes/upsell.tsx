import { useLoaderData } from "react-router";
import type { Route } from "./+types/upsell";
import { pricedBundle } from "../catalog/catalog.server";
import { TestModeNotice } from "../checkout/test-mode-notice";
import { ownOrder } from "../orders/order-page.server";
import { NextStepLink } from "../chrome/next-step-link";
import { funnelTextsFor, productTextFor, upsells } from "../funnel/content.server";
import { routeEntryForPath } from "../funnel/route-for-path";
import type { PlainRouteName } from "../funnel/route-table";
import { StoreImage } from "../image/store-image";
import { formatMoney } from "../market/money";
import { Money } from "../market/money-text";
import { storefrontStateContext } from "../market/request-context";
import { useStorefront } from "../market/storefront-context";
import { useTranslate } from "../market/translate";
import { DocumentMeta } from "../chrome/document-meta";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { market, lang } = context.get(storefrontStateContext);
  const plain = routeEntryForPath(new URL(request.url).pathname)?.plainPath.slice(1) ?? "upsell";
  const upsell = upsells.upsells[plain] ?? upsells.upsells.upsell;
  if (!upsell) throw new Error("No upsell configured");
  const line = pricedBundle(upsell.bundle, market.currency, new Date());
  return {
    line,
    next: upsell.next as PlainRouteName,
    product: productTextFor(lang, line.productId),
    texts: funnelTextsFor(lang).upsell,
    digital: line.kind === "digital",
    // Shown with the buyer's order, which is rendered per request; prerendered files have none.
    testMode: (await ownOrder(request, { endsFunnel: false }))?.test ?? false,
  };
}

/**
 * One product, an accept button that states the obligation to pay and the price, and a plain
 * decline link; both lead on along the configured chain, and the choice is kept for the session.
 */
export default function UpsellPage() {
  const { line, next, product, texts, digital, testMode } = useLoaderData<typeof loader>();
  const t = useTranslate();
  const { market } = useStorefront();
  const price = formatMoney(line.priceMinor, { languageTag: market.languageTag, currency: line.currency });
  return (
    <section className="upsell">
      <DocumentMeta title={line.productName} />
      {testMode ? <TestModeNotice /> : null}
      <p className="advertorial__kicker">{texts.kicker}</p>
      <h1>{line.productName}</h1>
      <p className="page-intro__lead">{product.tagline}</p>
      <StoreImage className="offer-hero__image" src={`${line.image}.svg`} preset="hero" alt={line.productName} priority />
      <ul className="offer-sections__benefits">
        {product.benefits.map((benefit) => (
          <li key={benefit}>{benefit}</li>
        ))}
      </ul>
      <p className="bundle-card__price">
        <Money minor={line.priceMinor} currency={line.currency} />
      </p>
      <p className="bundle-card__delivery">{digital ? texts.digitalDelivery : texts.sameParcel}</p>
      <div className="upsell__actions">
        <NextStepLink
          to={next}
          label={t("upsell.accept", { price })}
          testId="upsell-accept"
        />
        <NextStepLink
          to={next}
          label={texts.decline}
          testId="upsell-decline"
          className="upsell__decline"
        />
      </div>
    </section>
  );
}
