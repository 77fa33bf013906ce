/** One entry of a price history: the gross price that applied from a date on. */
export interface PricePoint {
  from: string;
  grossMinor: number;
}

const dayMs = 24 * 60 * 60 * 1000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The entry that applies on a day: the newest one that started on or before it (prices, VAT rates). */
export function currentPrice<T extends { from: string }>(history: readonly T[], today: Date): T | undefined {
  const day = isoDay(today);
  return history.filter((point) => point.from <= day).at(-1);
}

/**
 * The reference price of a reduction (Omnibus Directive, Price Indication Directive Art. 6a): the
 * lowest price that applied in the 30 days before the current price took effect.
 */
export function referencePrice(history: readonly PricePoint[], today: Date): number | undefined {
  const current = currentPrice(history, today);
  if (!current) return undefined;
  const start = isoDay(new Date(Date.parse(current.from) - 30 * dayMs));
  const earlier = history.filter((point) => point.from < current.from);
  // Prices in force during [start, current.from): the one in force at `start` and any set after it.
  const inForceAtStart = earlier.filter((point) => point.from <= start).at(-1);
  const window = [...(inForceAtStart ? [inForceAtStart] : []), ...earlier.filter((point) => point.from > start)];
  if (window.length === 0) return undefined;
  return Math.min(...window.map((point) => point.grossMinor));
}

/** The genuine reduction in whole percent, or null: no genuine reduction, no badge. */
export function savingsPercent(history: readonly PricePoint[], today: Date): number | null {
  const current = currentPrice(history, today);
  const reference = referencePrice(history, today);
  if (!current || reference === undefined || reference <= current.grossMinor) return null;
  const percent = Math.round(((reference - current.grossMinor) / reference) * 100);
  return percent > 0 ? percent : null;
}
