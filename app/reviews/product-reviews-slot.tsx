import { Suspense } from "react";
import { deferredComponent } from "../platform/deferred-component";

const ProductReviews = deferredComponent(() => import("./product-reviews").then((module) => module.ProductReviews));

/**
 * The reviews section of a product page: its code loads after the page's own and it fetches the
 * reviews once the page has loaded (decision record 0022); the rest of the page never waits for it.
 */
export function ProductReviewsSlot({ productId }: { productId: string }) {
  return (
    <Suspense fallback={null}>
      <ProductReviews productId={productId} />
    </Suspense>
  );
}
