import type { Market } from "./markets";

type MoneyMarket = Pick<Market, "languageTag" | "currency">;

// Constructing an `Intl.NumberFormat` costs far more than formatting with one; a page formats
// many amounts in one or two currencies.
const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(languageTag: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${languageTag} ${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(languageTag, options);
    numberFormats.set(key, format);
  }
  return format;
}

/**
 * Amounts are kept in minor units (cents, öre, Rappen) so that sums never meet floating-point
 * error; they are formatted with `Intl` in the market's language and currency (never the
 * country dataset's currency).
 */
export function formatMoney(amountMinor: number, market: MoneyMarket): string {
  return numberFormat(market.languageTag, { style: "currency", currency: market.currency }).format(amountMinor / 100);
}

/** The price of one unit of a bundle, rounded to the currency's minor unit. */
export function unitPriceMinor(totalMinor: number, units: number): number {
  if (!Number.isInteger(units) || units <= 0) throw new RangeError(`A bundle needs a positive whole number of units, got ${units}`);
  return Math.round(totalMinor / units);
}

/** A whole percentage (40) written the market's way: "40 %" in German, "40%" in English. */
export function formatPercent(percent: number, languageTag: string): string {
  return numberFormat(languageTag, { style: "percent", maximumFractionDigits: 0 }).format(percent / 100);
}

/** A rate in basis points with its decimals: 550 is "5,5 %" in French, 2000 is "20%" in English. */
export function formatRate(basisPoints: number, languageTag: string): string {
  return numberFormat(languageTag, { style: "percent", maximumFractionDigits: 2 }).format(basisPoints / 10_000);
}
