import { useLoaderData } from "react-router";
import type { Route } from "./+types/product";
import { offerForRoute, offerIdForRoute, pricedBundle } from "../catalog/catalog.server";
import { OfferSections } from "../catalog/offer-sections";
import { ProductsSection } from "../catalog/products-section";
import { NextStepLink } from "../chrome/next-step-link";
import { recordChoice } from "../funnel/choices";
import { funnelTextsFor, productTextFor, upsells } from "../funnel/content.server";
import { routeEntryForPath } from "../funnel/route-for-path";
import { StoreImage } from "../image/store-image";
import { formatMoney } from "../market/money";
import { storefrontStateContext } from "../market/request-context";
import { useStorefront } from "../market/storefront-context";
import { useTranslate } from "../market/translate";
import { DocumentMeta } from "../chrome/document-meta";

export function loader({ request, context }: Route.LoaderArgs) {
  const { market, lang } = context.get(storefrontStateContext);
  const entry = routeEntryForPath(new URL(request.url).pathname);
  const plain = entry?.plainPath.slice(1) ?? "fibergum";
  const productId = upsells.productPages[plain] ?? "fibergum";
  const today = new Date();
  // A product with bundles shows them; a single product (the audio programme) one buy button.
  const offer = offerIdForRoute(entry?.name ?? plain) === productId ? offerForRoute(entry?.name ?? plain, market.currency, today) : null;
  return {
    offer,
    single: offer ? null : pricedBundle(`${productId}-1`, market.currency, today),
    product: productTextFor(lang, productId),
    sections: funnelTextsFor(lang).offerSections,
  };
}

/** /fibergum, /v8, /hypnotherapy and its A/B twin /hypnotherapyy. */
export default function ProductPage() {
  const { offer, single, product, sections } = useLoaderData<typeof loader>();
  const t = useTranslate();
  const { market } = useStorefront();
  const hero = offer?.lines[0] ?? single;
  return (
    <>
      <section className="page-intro">
        <DocumentMeta title={hero?.productName ?? product.tagline} />
        <h1>{hero?.productName}</h1>
        <p className="page-intro__lead">{product.tagline}</p>
        {hero ? <StoreImage className="offer-hero__image" src={`${hero.image}.svg`} preset="hero" alt={hero.productName} priority /> : null}
        {single ? (
          <NextStepLink
            to="upsell"
            label={t("products.buy", { price: formatMoney(single.priceMinor, { languageTag: market.languageTag, currency: single.currency }) })}
            testId="product-buy"
            onClick={() => recordChoice({ bundleId: single.bundleId, accepted: true })}
          />
        ) : null}
      </section>
      {offer ? <ProductsSection offer={offer} /> : null}
      <OfferSections product={product} titles={sections} />
    </>
  );
}
