import { useLoaderData } from "react-router";
import type { Route } from "./+types/offer";
import { ExitIntent } from "../catalog/exit-intent";
import { OfferSections } from "../catalog/offer-sections";
import { loadOfferPage } from "../catalog/offer-loader.server";
import { ProductsSection } from "../catalog/products-section";
import { OrderNowButton } from "../chrome/order-now-button";
import { PageIntro } from "../chrome/page-intro";
import { StoreImage } from "../image/store-image";
import { DocumentMeta } from "../chrome/document-meta";

export function loader(args: Route.LoaderArgs) {
  return loadOfferPage(args);
}

/**
 * Every offer route renders this template, configured by content: the offer (which bundles, in
 * which order) from `content/catalog/offers.json`, the product's texts from `content/products/`.
 * /offer2 is the advertorial that leads to the offer; /offerexitpop adds the exit-intent dialog.
 */
export default function OfferPage() {
  const { offer, product, sections, advertorial, exitIntent } = useLoaderData<typeof loader>();
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
        <OfferSections product={product} titles={sections} />
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
      <OfferSections product={product} titles={sections} />
      {exitIntent ? <ExitIntent texts={exitIntent} /> : null}
    </>
  );
}
