/**
 * One entry of a price history: the gross price that applied from a date on. A reduction has an
 * end (`until`, an instant with its offset): from then on the price in force before it applies
 * again, for everyone, on the page and in the quote.
 */
export interface PricePoint {
  from: string;
  until?: string;
  grossMinor: number;
}

const dayMs = 24 * 60 * 60 * 1000;

/** When an entry starts: a bare date is midnight UTC, as the catalog has always read it. */
const startOf = (point: { from: string }) => Date.parse(point.from);
const endOf = (point: { until?: string }) => (point.until === undefined ? Number.POSITIVE_INFINITY : Date.parse(point.until));

/**
 * The entry that applies at a moment (prices, VAT rates): the newest one that has started and
 * whose end, if it has one, has not come.
 */
export function currentPrice<T extends { from: string; until?: string }>(history: readonly T[], now: Date): T | undefined {
  const at = now.getTime();
  return history.filter((point) => startOf(point) <= at && at < endOf(point)).at(-1);
}

/**
 * The reference price of a reduction (Omnibus Directive, Price Indication Directive Art. 6a): the
 * lowest price that applied in the 30 days before the current price took effect.
 */
export function referencePrice(history: readonly PricePoint[], now: Date): number | undefined {
  const current = currentPrice(history, now);
  if (!current) return undefined;
  const begin = startOf(current) - 30 * dayMs;
  const end = startOf(current);
  // The price can change only where an entry starts or ends: look at each such moment in the window.
  const moments = [begin, ...history.flatMap((point) => [startOf(point), endOf(point)]).filter((moment) => moment > begin && moment < end)];
  const prices = moments.map((moment) => currentPrice(history, new Date(moment))?.grossMinor).filter((price) => price !== undefined);
  return prices.length === 0 ? undefined : Math.min(...prices);
}

/** The genuine reduction in whole percent, or null: no genuine reduction, no badge. */
export function savingsPercent(history: readonly PricePoint[], now: Date): number | null {
  const current = currentPrice(history, now);
  const reference = referencePrice(history, now);
  if (!current || reference === undefined || reference <= current.grossMinor) return null;
  const percent = Math.round(((reference - current.grossMinor) / reference) * 100);
  return percent > 0 ? percent : null;
}

/** The reduction in force now and what applies once it ends; null when no reduction runs. */
export function runningReduction(history: readonly PricePoint[], now: Date): { endsAt: number; afterMinor: number } | null {
  const current = currentPrice(history, now);
  if (!current?.until || savingsPercent(history, now) === null) return null;
  const endsAt = endOf(current);
  const after = currentPrice(history, new Date(endsAt));
  return after ? { endsAt, afterMinor: after.grossMinor } : null;
}

/**
 * Entries sold below their own reference price without an end: a reduction must end, and an
 * entry that follows it must not silently change its price before then.
 */
export function reductionsWithoutEnd(history: readonly PricePoint[]): string[] {
  return history
    .filter((point) => {
      const inForce = new Date(startOf(point));
      return currentPrice(history, inForce) === point && savingsPercent(history, inForce) !== null && point.until === undefined;
    })
    .map((point) => point.from);
}
