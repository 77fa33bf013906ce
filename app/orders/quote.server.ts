import { bumpOf, isOfferedBundle, pricedBundle, vatClassOf } from "../catalog/catalog.server";
import { upsells } from "../funnel/content.server";
import type { Market } from "../market/markets";
import { standardDeliveryMinor, vatRateBp } from "./commerce-content.server";
import { spreadDiscount } from "./discount";
import { orderTotals, priceLine, type OrderTotals, type PricedLine } from "./pricing";

/** What a buyer is asked to pay, computed here from the catalog and never taken from the browser. */
export interface Quote {
  /** With a code, each line's gross and VAT are after its share of the discount, `discountMinor`. */
  lines: (PricedLine & { unitPriceMinor: number; discountMinor?: number })[];
  totals: OrderTotals;
  currency: Market["currency"];
  /** The code applied to the checkout and what it takes off the lines (delivery is never discounted). */
  discount?: { code: string; discountMinor: number };
}

export function quoteLine(market: Market, bundleId: string, today: Date): PricedLine & { unitPriceMinor: number } {
  const offered = pricedBundle(bundleId, market.currency, today, market.locale);
  return {
    ...priceLine({
      bundleId,
      productId: offered.productId,
      productName: offered.productName,
      kind: offered.kind,
      units: offered.units,
      grossMinor: offered.priceMinor,
      vatRateBp: vatRateBp(market, vatClassOf(bundleId), today),
    }),
    unitPriceMinor: offered.unitPriceMinor,
  };
}

/**
 * Single products sold from their own page (the audio programme), and upsell products chosen by a
 * visitor who reached an upsell page without an order, go to the checkout too.
 */
const singleBundles = new Set([
  ...Object.values(upsells.productPages).map((productId) => `${productId}-1`),
  ...Object.values(upsells.upsells).map((upsell) => upsell.bundle),
]);

/**
 * The quote of a checkout for one bundle an offer, product or upsell page sells, or null for any
 * other. With `bump`, the offer's add-on is a second line of the same order (a bundle without a
 * bump gets none).
 */
export function quoteCheckout(market: Market, bundleId: string, today: Date, options: { bump?: boolean } = {}): Quote | null {
  if (!isOfferedBundle(bundleId) && !singleBundles.has(bundleId)) return null;
  const bump = options.bump ? bumpOf(bundleId) : null;
  const lines = [quoteLine(market, bundleId, today), ...(bump ? [quoteLine(market, bump, today)] : [])];
  return { lines, totals: orderTotals(lines, standardDeliveryMinor(market)), currency: market.currency };
}

/**
 * The quote with a code's discount spread over its lines: each line's gross and VAT are the
 * discounted ones, and the totals follow. Delivery keeps its price.
 */
export function discountedQuote(market: Market, quote: Quote, discount: { code: string; discountMinor: number }): Quote {
  const lines = spreadDiscount(quote.lines, discount.discountMinor).map(({ undiscountedGrossMinor: _before, ...line }) => line);
  return { lines, totals: orderTotals(lines, standardDeliveryMinor(market)), currency: quote.currency, discount };
}
