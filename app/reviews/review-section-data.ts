/** The review data the storefront fetches after load, formatted by the server for one market. */

export interface ShownReview {
  id: string;
  rating: number;
  /** "4 stars out of 5": the accessible name of the stars. */
  stars: string;
  /** The buyer's own words, shown as text. */
  body: string;
  name: string;
  verified: string;
  date: string;
}

export interface ReviewLink {
  href: string;
  label: string;
}

export interface ProductReviewsData {
  title: string;
  average: string;
  averageValue: number;
  count: string;
  checkNote: string;
  policyLink: ReviewLink;
  showMore: string;
  reviews: ShownReview[];
}

export interface RatingSummariesData {
  /** Across every product; null while no review is published. */
  overall: { label: string; averageValue: number } | null;
  products: Record<string, { label: string; averageValue: number }>;
  policyLink: ReviewLink;
}

/** Where the storefront fetches them (`routes.ts`). */
export function productReviewsPath(routeValue: string, productId: string): string {
  return `/reviews/${encodeURIComponent(routeValue)}/${encodeURIComponent(productId)}`;
}

export function ratingSummariesPath(routeValue: string): string {
  return `/reviews/${encodeURIComponent(routeValue)}`;
}
