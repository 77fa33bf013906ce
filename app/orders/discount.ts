import { priceLine, type PricedLine } from "./pricing";

/** A checkout line after a code: its gross and VAT are the discounted ones, `discountMinor` what it gave. */
export type DiscountedLine<Line extends PricedLine> = Line & { discountMinor: number; undiscountedGrossMinor: number };

/**
 * Spreads an order's discount over its lines in proportion to their gross amounts, in whole minor
 * units by the largest-remainder method: the shares always add up to the discount, no line gives
 * more than it costs, and ties go to the earlier line. Each line's VAT is then taken from its
 * discounted gross amount, so the VAT charged is the VAT of what is really paid for that line.
 */
export function spreadDiscount<Line extends PricedLine>(lines: readonly Line[], discountMinor: number): DiscountedLine<Line>[] {
  if (!Number.isInteger(discountMinor) || discountMinor < 0) throw new RangeError(`A discount is a whole number of minor units, got ${discountMinor}`);
  const grossTotal = lines.reduce((sum, line) => sum + line.grossMinor, 0);
  if (discountMinor > grossTotal) throw new RangeError(`A discount of ${discountMinor} exceeds the lines' ${grossTotal}`);
  const shares = largestRemainderShares(
    lines.map((line) => line.grossMinor),
    discountMinor,
  );
  return lines.map((line, index) => {
    const share = shares[index] ?? 0;
    const priced = priceLine({ ...line, grossMinor: line.grossMinor - share });
    return { ...line, grossMinor: priced.grossMinor, vatMinor: priced.vatMinor, discountMinor: share, undiscountedGrossMinor: line.grossMinor };
  });
}

/** Splits `amount` over `weights` in proportion; the floors first, then one unit each to the largest remainders. */
function largestRemainderShares(weights: readonly number[], amount: number): number[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  if (total === 0 || amount === 0) return weights.map(() => 0);
  // Integer arithmetic throughout: weight × amount stays far below 2^53 for any real order.
  const shares = weights.map((weight) => Math.floor((weight * amount) / total));
  let left = amount - shares.reduce((sum, share) => sum + share, 0);
  const byRemainder = weights.map((weight, index) => ({ index, remainder: (weight * amount) % total })).sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left === 0) break;
    shares[index] = (shares[index] ?? 0) + 1;
    left -= 1;
  }
  return shares;
}
