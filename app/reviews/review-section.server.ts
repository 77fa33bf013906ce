import type { Queryable } from "../db/database.server";
import { routePath } from "../funnel/paths";
import { formatDate } from "../market/date-time";
import type { Market } from "../market/markets";
import { publishedReviews, ratingSummaries, reviewLanguage, type RatingSummary } from "./reviews.server";
import { formatReviewText as format, reviewTextsFor } from "./review-texts.server";
import type { ProductReviewsData, RatingSummariesData } from "./review-section-data";

/**
 * The published reviews as the storefront shows them, formatted on the server for one market
 * (decision record 0022): offer pages fetch their product's section and the landing page the
 * summaries after load, from a short-lived cache, so prerendered pages stay prerendered.
 */

/** How long an instance keeps what it read; moderation on the same instance clears it at once. */
export const reviewCacheMs = 60_000;

/** Averages are shown to one decimal, rounded half up (4.25 → 4.3), as review sites do. */
const roundedAverage = (average: number) => Math.round(average * 10) / 10;

function formatAverage(average: number, languageTag: string): string {
  return new Intl.NumberFormat(languageTag, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(roundedAverage(average));
}

/** "4,3 von 5 aus 12 verifizierten Bewertungen", with the rounded average the stars show. */
function summaryOf(summary: Pick<RatingSummary, "average" | "count">, market: Market): { label: string; averageValue: number } {
  const average = formatAverage(summary.average, market.languageTag);
  return { label: format(reviewTextsFor(market.locale).summary.label, market.languageTag, { average, count: summary.count }), averageValue: roundedAverage(summary.average) };
}

export async function productReviewsData(db: Queryable, market: Market, productId: string, includeTest: boolean): Promise<ProductReviewsData | null> {
  const language = reviewLanguage(market);
  const summary = (await ratingSummaries(db, language, includeTest)).find((row) => row.productId === productId);
  if (!summary) return null;
  const texts = reviewTextsFor(market.locale).section;
  const tag = market.languageTag;
  const reviews = await publishedReviews(db, productId, language, includeTest);
  const average = formatAverage(summary.average, tag);
  return {
    title: texts.title,
    average: format(texts.average, tag, { average }),
    averageValue: roundedAverage(summary.average),
    count: format(texts.count, tag, { count: summary.count }),
    checkNote: texts.checkNote,
    policyLink: { href: routePath("review-policy-2", market.routeValue), label: texts.policyLink },
    showMore: texts.showMore,
    reviews: reviews.map((review) => ({
      id: review.id,
      rating: review.rating,
      stars: format(texts.stars, tag, { rating: review.rating }),
      body: review.body,
      name: review.displayName,
      verified: texts.verified,
      date: format(texts.reviewedOn, tag, { date: formatDate(review.createdAt, market) }),
    })),
  };
}

export async function ratingSummariesData(db: Queryable, market: Market, includeTest: boolean): Promise<RatingSummariesData> {
  const summaries = await ratingSummaries(db, reviewLanguage(market), includeTest);
  const all = summaries.reduce((sum, row) => ({ total: sum.total + row.average * row.count, count: sum.count + row.count }), { total: 0, count: 0 });
  return {
    overall: all.count > 0 ? summaryOf({ average: all.total / all.count, count: all.count }, market) : null,
    products: Object.fromEntries(summaries.map((row) => [row.productId, summaryOf(row, market)])),
    policyLink: { href: routePath("review-policy-2", market.routeValue), label: reviewTextsFor(market.locale).section.policyLink },
  };
}

interface Entry {
  expires: number;
  value: Promise<unknown>;
}

/** What each instance read lately, per market, product and mode; small (a few entries per market). */
const cache = new Map<string, Entry>();

export function cachedReviewData<T>(key: string, read: () => Promise<T>, now = Date.now()): Promise<T> {
  const hit = cache.get(key);
  if (hit && hit.expires > now) return hit.value as Promise<T>;
  const value = read();
  cache.set(key, { expires: now + reviewCacheMs, value });
  // A failed read is not kept: the next request tries again.
  value.catch(() => cache.delete(key));
  return value;
}

/** After a review was published or rejected: this instance shows the change at once. */
export function clearReviewCache(): void {
  cache.clear();
}
