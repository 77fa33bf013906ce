import { useEffect, useState } from "react";
import { useStorefront } from "../market/storefront-context";
import { afterPageLoad } from "../platform/idle";
import { productReviewsPath, type ProductReviewsData } from "./review-section-data";
import { Stars } from "./stars";

/** Reviews shown before "Show more". */
const firstShown = 5;

/**
 * The published reviews of a product in the visitor's language, fetched once the page has loaded
 * (decision record 0022). Nothing is shown while none is published, or when the fetch fails: the
 * page never waits for it and never shows an empty section.
 */
export function ProductReviews({ productId }: { productId: string }) {
  const { market } = useStorefront();
  const [data, setData] = useState<ProductReviewsData | null>(null);
  const [expanded, setExpanded] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    const cancel = afterPageLoad(() => {
      fetch(productReviewsPath(market.routeValue, productId), { signal: controller.signal, headers: { Accept: "application/json" } })
        .then((response) => (response.ok ? (response.json() as Promise<ProductReviewsData | null>) : null))
        .then((found) => setData(found && found.reviews.length > 0 ? found : null))
        .catch(() => undefined);
    });
    return () => {
      cancel();
      controller.abort();
    };
  }, [market.routeValue, productId]);

  if (!data) return null;
  const shown = expanded ? data.reviews : data.reviews.slice(0, firstShown);
  return (
    <section aria-labelledby="reviews-title" className="product-reviews" data-testid="product-reviews">
      <h2 id="reviews-title">{data.title}</h2>
      <p className="product-reviews__summary" data-testid="reviews-summary">
        <Stars value={data.averageValue} label={data.average} />
        <strong>{data.average}</strong> <span>{data.count}</span>
      </p>
      <p className="product-reviews__note">
        {data.checkNote} <a href={data.policyLink.href}>{data.policyLink.label}</a>
      </p>
      <ul className="product-reviews__list">
        {shown.map((review) => (
          <li key={review.id} data-testid="review">
            <Stars value={review.rating} label={review.stars} />
            <blockquote>
              <p>{review.body}</p>
            </blockquote>
            <p className="product-reviews__author">
              {review.name} · <span className="product-reviews__verified">✓ {review.verified}</span>
            </p>
            <p className="product-reviews__date">{review.date}</p>
          </li>
        ))}
      </ul>
      {!expanded && data.reviews.length > firstShown ? (
        <button type="button" className="button button--secondary" onClick={() => setExpanded(true)}>
          {data.showMore}
        </button>
      ) : null}
    </section>
  );
}
