import { Suspense } from "react";
import { useLoaderData } from "react-router";
import type { Route } from "./+types/product";
import { offerForRoute, offerIdForRoute, pricedBundle } from "../catalog/catalog.server";
import { ProductsSection } from "../offer/products-section";
import { CheckoutLink } from "../funnel/checkout-link";
import { funnelTextsFor, productTextFor, upsells } from "../funnel/content.server";
import { routeEntryForPath } from "../funnel/route-for-path";
import { StoreImage } from "../image/store-image";
import { Money } from "../market/money-text";
import { storefrontStateContext } from "../market/request-context";
import { dispatchRuleFor } from "../orders/commerce-content.server";
import { useTranslate } from "../market/translate";
import { DocumentMeta } from "../market/document-meta";
import { deferredComponent } from "../platform/deferred-component";

// The product's texts fill the lower half of the page: their code loads next to hydration
// instead of before it, and the server's HTML stays in place meanwhile.
const OfferSections = deferredComponent(() => import("../offer/offer-sections").then((module) => module.OfferSections));

export function loader({ request, context }: Route.LoaderArgs) {
  const { market, lang } = context.get(storefrontStateContext);
  const entry = routeEntryForPath(new URL(request.url).pathname);
  const plain = entry?.plainPath.slice(1) ?? "fibergum";
  const productId = upsells.productPages[plain] ?? "fibergum";
  const today = new Date();
  // A product with bundles shows them; a single product (the audio programme) one buy button.
  const offer = offerIdForRoute(entry?.name ?? plain) === productId ? offerForRoute(entry?.name ?? plain, market.currency, today, lang) : null;
  return {
    productId,
    offer,
    dispatch: dispatchRuleFor(market),
    single: offer ? null : pricedBundle(`${productId}-1`, market.currency, today, lang),
    product: productTextFor(lang, productId),
    sections: funnelTextsFor(lang).offerSections,
  };
}

/** /fibergum, /v8, /hypnotherapy and its A/B twin /hypnotherapyy. */
export default function ProductPage() {
  const { productId, offer, single, product, sections } = useLoaderData<typeof loader>();
  const t = useTranslate();
  const hero = offer?.lines[0] ?? single;
  return (
    <>
      <section className="page-intro">
        <DocumentMeta title={hero?.productName ?? product.tagline} />
        <h1>{hero?.productName}</h1>
        <p className="page-intro__lead">{product.tagline}</p>
        {hero ? <StoreImage className="offer-hero__image" src={`${hero.image}.svg`} preset="hero" alt={hero.productName} priority /> : null}
        {single ? (
          <>
            <p className="bundle-card__price">
              <Money minor={single.priceMinor} currency={single.currency} />
            </p>
            <CheckoutLink bundleId={single.bundleId} label={t("common.orderNow")} testId="product-buy" />
          </>
        ) : null}
      </section>
      {offer ? <ProductsSection offer={offer} /> : null}
      <Suspense fallback={null}>
        <OfferSections product={product} titles={sections} reviewsFor={productId} />
      </Suspense>
    </>
  );
}
