import { Suspense } from "react";
import { useLoaderData } from "react-router";
import type { Route } from "./+types/offer";
import { loadOfferPage } from "../offer/offer-loader.server";
import { ProductsSection } from "../offer/products-section";
import { OrderNowButton } from "../chrome/order-now-button";
import { PageIntro } from "../chrome/page-intro";
import { StoreImage } from "../image/store-image";
import { DocumentMeta } from "../market/document-meta";
import { deferredComponent } from "../platform/deferred-component";

// The product's texts fill the lower half of the page, below the bundles: their code loads next
// to hydration instead of before it, and the server's HTML stays in place meanwhile.
const OfferSections = deferredComponent(() => import("../offer/offer-sections").then((module) => module.OfferSections));

// Only /offerexitpop has the dialog, and it opens when the pointer leaves the window: its code is
// loaded on that page alone, after the page itself.
const ExitIntent = deferredComponent(() => import("../offer/exit-intent").then((module) => module.ExitIntent));

export function loader(args: Route.LoaderArgs) {
  return loadOfferPage(args);
}

/**
 * Every offer route renders this template, configured by content: the offer (which bundles, in
 * which order) from `content/catalog/offers.json`, the product's texts from `content/products/`.
 * /offer2 is the advertorial that leads to the offer; /offerexitpop adds the exit-intent dialog.
 */
export default function OfferPage() {
  const { offer, productId, product, sections, advertorial, exitIntent } = useLoaderData<typeof loader>();
  const hero = offer.lines[0];
  if (advertorial) {
    return (
      <article className="advertorial">
        <DocumentMeta title={advertorial.title} />
        <p className="advertorial__kicker">{advertorial.kicker}</p>
        <h1>{advertorial.title}</h1>
        <p className="page-intro__lead">{advertorial.standfirst}</p>
        {hero ? <StoreImage className="offer-hero__image" src={`${hero.image}.svg`} preset="hero" alt={hero.productName} priority /> : null}
        {advertorial.paragraphs.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
        <OrderNowButton navigate={false} label={advertorial.cta} />
        <ProductsSection offer={offer} />
        <Suspense fallback={null}>
          <OfferSections product={product} titles={sections} reviewsFor={productId} />
        </Suspense>
      </article>
    );
  }
  return (
    <>
      <div className="offer-hero">
        <PageIntro messagePrefix="pages.offer">
          <p>{product.tagline}</p>
          <OrderNowButton navigate={false} />
        </PageIntro>
        {hero ? <StoreImage className="offer-hero__image" src={`${hero.image}.svg`} preset="hero" alt={hero.productName} priority /> : null}
      </div>
      <ProductsSection offer={offer} />
      <Suspense fallback={null}>
        <OfferSections product={product} titles={sections} reviewsFor={productId} />
      </Suspense>
      {exitIntent ? (
        <Suspense fallback={null}>
          <ExitIntent texts={exitIntent} />
        </Suspense>
      ) : null}
    </>
  );
}
