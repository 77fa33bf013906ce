import type { CurrencyCode } from "../market/markets";

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
  mostPopular: boolean;
}

export interface OfferView {
  id: string;
  lines: OfferLine[];
  countdownMinutes: number;
}

/** The banner's savings percent: the second product's (specification §1). */
export function bannerSavingsPercent(offer: OfferView): number | null {
  return offer.lines[1]?.savings.percent ?? null;
}
