/**
 * Order arithmetic in integer minor units. Prices are gross (VAT included, as shown to the
 * buyer); each line keeps the VAT its gross price contains at the line's rate.
 */

export interface LineInput {
  bundleId: string;
  productId: string;
  productName: string;
  kind: "supplement" | "digital";
  units: number;
  grossMinor: number;
  /** VAT rate in basis points: 550 is 5.5 %. */
  vatRateBp: number;
}

export interface PricedLine extends LineInput {
  vatMinor: number;
}

export interface OrderTotals {
  itemsMinor: number;
  deliveryMinor: number;
  deliveryVatRateBp: number;
  vatMinor: number;
  totalMinor: number;
}

/** The VAT contained in a gross amount: gross − gross / (1 + rate), rounded to the minor unit. */
export function includedVat(grossMinor: number, rateBp: number): number {
  if (!Number.isInteger(grossMinor) || grossMinor < 0) throw new RangeError(`A gross amount is a whole number of minor units, got ${grossMinor}`);
  if (!Number.isInteger(rateBp) || rateBp < 0) throw new RangeError(`A VAT rate is a whole number of basis points, got ${rateBp}`);
  return grossMinor - Math.round((grossMinor * 10_000) / (10_000 + rateBp));
}

export function priceLine(line: LineInput): PricedLine {
  return { ...line, vatMinor: includedVat(line.grossMinor, line.vatRateBp) };
}

/**
 * Totals of an order's lines plus delivery. Delivery is charged only when something physical is
 * shipped, and carries the VAT of the goods it ships (the highest rate among them, to stay safe).
 */
export function orderTotals(lines: readonly PricedLine[], standardDeliveryMinor: number): OrderTotals {
  const physical = lines.filter((line) => line.kind === "supplement");
  const deliveryMinor = physical.length > 0 ? standardDeliveryMinor : 0;
  const deliveryVatRateBp = physical.reduce((rate, line) => Math.max(rate, line.vatRateBp), 0);
  const itemsMinor = lines.reduce((sum, line) => sum + line.grossMinor, 0);
  const vatMinor = lines.reduce((sum, line) => sum + line.vatMinor, 0) + includedVat(deliveryMinor, deliveryVatRateBp);
  return { itemsMinor, deliveryMinor, deliveryVatRateBp, vatMinor, totalMinor: itemsMinor + deliveryMinor };
}
