import { memo } from "react";
import { CheckoutLink } from "../funnel/checkout-link";
import { StoreImage } from "../image/store-image";
import { Money, Percent } from "../market/money-text";
import { useTranslate } from "../market/translate";
import type { OfferLine, OfferView } from "../catalog/offer-view";
import { useOfferNow } from "../catalog/page-offer";
import { formatDate } from "../market/date-time";
import { useStorefront } from "../market/storefront-context";

/**
 * A card renders again only when its line changes. Right after hydration the offer is re-priced
 * at the browser's clock; a line whose price still holds is the same object (`lineAt`), so the
 * cards are not formatted a second time inside that update's synchronous render.
 */
const BundleCard = memo(function BundleCard({ line }: { line: OfferLine }) {
  const t = useTranslate();
  const { market } = useStorefront();
  const headingId = `bundle-${line.bundleId}`;
  return (
    <li className={`bundle-card${line.mostPopular ? " bundle-card--popular" : ""}`} data-testid="product-card" aria-labelledby={headingId}>
      {line.mostPopular ? <p className="bundle-card__popular">{t("products.mostPopular")}</p> : null}
      <StoreImage className="bundle-card__image" src={`${line.image}.svg`} preset="packshot" alt={line.productName} placeholder />
      <h3 id={headingId} className="bundle-card__title">
        {line.productName} – <span className="bundle-card__units">{line.kind === "digital" ? t("products.digital") : t("products.units", { units: line.units })}</span>
      </h3>
      {line.savings.percent !== null ? (
        <p className="bundle-card__badge">{t.rich("products.savings", { percent: <Percent value={line.savings.percent} /> })}</p>
      ) : null}
      <p className="bundle-card__price">
        <Money minor={line.priceMinor} currency={line.currency} />
      </p>
      {line.units > 1 ? (
        <p className="bundle-card__unit">{t.rich("products.unitPrice", { price: <Money minor={line.unitPriceMinor} currency={line.currency} /> })}</p>
      ) : null}
      {line.savings.percent !== null && line.referenceMinor !== null ? (
        <p className="bundle-card__reference" data-testid="reference-price">
          {t.rich("products.referencePrice", { price: <Money minor={line.referenceMinor} currency={line.currency} /> })}
        </p>
      ) : null}
      {line.savings.percent !== null && line.offerEndsAt !== null ? (
        <p className="bundle-card__ends" data-testid="offer-ends">
          {t("products.offerEnds", { date: formatDate(new Date(line.offerEndsAt - 1), market) })}
        </p>
      ) : null}
      <p className="bundle-card__delivery">{t("products.delivery")}</p>
      <CheckoutLink bundleId={line.bundleId} label={t("products.choose")} describedBy={headingId} />
    </li>
  );
});

/** The offer's bundles in display order; the order-now button scrolls here. */
export function ProductsSection({ offer: priced }: { offer: OfferView }) {
  const t = useTranslate();
  // Once the reduction ends, the regular prices show, also on a page served from a cache.
  const offer = useOfferNow(priced);
  return (
    <section id="products" className="products" data-testid="products" aria-labelledby="products-heading" tabIndex={-1}>
      <h2 id="products-heading">{t("products.heading")}</h2>
      <ul className="products__list">
        {offer.lines.map((line) => (
          <BundleCard key={line.bundleId} line={line} />
        ))}
      </ul>
    </section>
  );
}
