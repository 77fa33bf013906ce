import type { CurrencyCode } from "../market/markets";
import { unitPriceMinor } from "../market/money";

/** One bundle card of an offer, priced for the visitor's market. Amounts are in minor units. */
export interface OfferLine {
  bundleId: string;
  productId: string;
  productName: string;
  /** Digital items (ebooks, audio) are named as such, never counted in boxes. */
  kind: "supplement" | "digital";
  image: string;
  units: number;
  currency: CurrencyCode;
  priceMinor: number;
  unitPriceMinor: number;
  /** The lowest price of the 30 days before the current one took effect, when there was one. */
  referenceMinor: number | null;
  /** A genuine reduction against the reference price; null means no badge. */
  savings: { percent: number | null };
  /** When the running reduction ends (epoch ms), and the price from then on; null without one. */
  offerEndsAt: number | null;
  afterOfferMinor: number | null;
  mostPopular: boolean;
}

export interface OfferView {
  id: string;
  lines: OfferLine[];
  /** The moment the prices were taken (epoch ms): a prerendered or cached page may be older. */
  pricedAt: number;
}

/** The banner's savings percent: the second product's (decision 5). */
export function bannerSavingsPercent(offer: OfferView): number | null {
  return offer.lines[1]?.savings.percent ?? null;
}

/** The first end of a running reduction among the offer's lines, if any. */
export function offerEndsAt(offer: OfferView): number | null {
  const ends = offer.lines.flatMap((line) => (line.offerEndsAt === null ? [] : [line.offerEndsAt]));
  return ends.length === 0 ? null : Math.min(...ends);
}

/**
 * A line as it applies at a moment: once its reduction has ended, the regular price, with no
 * saving and no reference price. Pages served from a cache or prerendered show what applies now.
 */
function lineAt(line: OfferLine, now: number): OfferLine {
  if (line.offerEndsAt === null || line.afterOfferMinor === null || now < line.offerEndsAt) return line;
  return {
    ...line,
    priceMinor: line.afterOfferMinor,
    unitPriceMinor: unitPriceMinor(line.afterOfferMinor, line.units),
    referenceMinor: null,
    savings: { percent: null },
    offerEndsAt: null,
    afterOfferMinor: null,
  };
}

export function offerAt(offer: OfferView, now: number): OfferView {
  return { ...offer, lines: offer.lines.map((line) => lineAt(line, now)) };
}
