import { useLoaderData, useMatches } from "react-router";
import type { Route } from "./+types/offer";
import { loadPageOffer } from "../catalog/offer-loader.server";
import { ProductsSection } from "../catalog/products-section";
import { OrderNowButton } from "../chrome/order-now-button";
import { PageIntro } from "../chrome/page-intro";
import { StoreImage } from "../image/store-image";

export function loader(args: Route.LoaderArgs) {
  return loadPageOffer(args);
}

/** Every offer route renders this template; /offer2 is the advertorial that leads to the offer. */
export default function OfferPage() {
  const { offer } = useLoaderData<typeof loader>();
  const isAdvertorial = useMatches().at(-1)?.id.startsWith("offer2") ?? false;
  const hero = offer.lines[0];
  return (
    <>
      <div className="offer-hero">
        <PageIntro messagePrefix={isAdvertorial ? "pages.advertorial" : "pages.offer"}>
          <OrderNowButton navigate={false} />
        </PageIntro>
        {hero ? <StoreImage className="offer-hero__image" src={`${hero.image}.svg`} preset="hero" alt={hero.productName} priority /> : null}
      </div>
      <ProductsSection offer={offer} />
    </>
  );
}
