import { describe, expect, it } from "vitest";
import { includedVat, orderTotals, priceLine, type LineInput, type OrderTotals, type PricedLine } from "./pricing";

const line = (overrides: Partial<LineInput>): LineInput => ({
  bundleId: "shape-3",
  productId: "shape",
  productName: "Shape",
  kind: "supplement",
  units: 1,
  grossMinor: 8970,
  vatRateBp: 550,
  ...overrides,
});

describe("includedVat", () => {
  it.each<[number, number, number]>([
    // gross − round(gross × 10000 / (10000 + rate))
    [8970, 550, 468], // 8970 − 8502
    [3990, 1900, 637], // 3990 − 3353
    [990, 0, 0],
    [2490, 2550, 506], // 2490 − 1984
    [2490, 1900, 398], // 2490 − 2092
    [990, 2000, 165], // 990 − 825, exact
    [495, 550, 26], // 495 − 469
    [495, 1900, 79], // 495 − 416
    [0, 2000, 0],
    [1, 550, 0],
  ])("includedVat(%i, %i) = %i", (gross, rate, vat) => {
    expect(includedVat(gross, rate)).toBe(vat);
  });

  it.each<[string, number, number]>([
    ["a negative gross amount", -1, 550],
    ["a fractional gross amount", 89.7, 550],
    ["a gross amount that is not a number", Number.NaN, 550],
    ["a negative rate", 8970, -550],
    ["a fractional rate", 8970, 5.5],
  ])("refuses %s", (_name, gross, rate) => {
    expect(() => includedVat(gross, rate)).toThrow(RangeError);
  });
});

describe("priceLine", () => {
  it.each<[LineInput, number]>([
    [line({ grossMinor: 8970, vatRateBp: 550 }), 468],
    [line({ kind: "digital", grossMinor: 990, vatRateBp: 2000 }), 165],
    [line({ grossMinor: 990, vatRateBp: 0 }), 0],
  ])("keeps the line and adds the VAT its gross price contains (%#)", (input, vat) => {
    expect(priceLine(input)).toEqual({ ...input, vatMinor: vat });
  });
});

describe("orderTotals", () => {
  const supplementLow = priceLine(line({ bundleId: "shape-3", grossMinor: 8970, vatRateBp: 550 })); // VAT 468
  const supplementHigh = priceLine(line({ bundleId: "sleep-1", grossMinor: 3990, vatRateBp: 1900 })); // VAT 637
  const digital = priceLine(line({ bundleId: "plan-1", kind: "digital", grossMinor: 990, vatRateBp: 2000 })); // VAT 165

  it.each<[string, PricedLine[], number, OrderTotals]>([
    [
      "one supplement: delivery charged at its rate",
      [supplementLow],
      495,
      { itemsMinor: 8970, deliveryMinor: 495, deliveryVatRateBp: 550, vatMinor: 468 + 26, totalMinor: 9465 },
    ],
    [
      "supplements at two rates and a digital item: delivery VAT at the highest physical rate, not the digital one",
      [supplementLow, supplementHigh, digital],
      495,
      { itemsMinor: 13950, deliveryMinor: 495, deliveryVatRateBp: 1900, vatMinor: 468 + 637 + 165 + 79, totalMinor: 14445 },
    ],
    [
      "digital only: no delivery",
      [digital],
      495,
      { itemsMinor: 990, deliveryMinor: 0, deliveryVatRateBp: 0, vatMinor: 165, totalMinor: 990 },
    ],
    [
      "free delivery with a supplement",
      [supplementLow],
      0,
      { itemsMinor: 8970, deliveryMinor: 0, deliveryVatRateBp: 550, vatMinor: 468, totalMinor: 8970 },
    ],
    ["no lines at all", [], 495, { itemsMinor: 0, deliveryMinor: 0, deliveryVatRateBp: 0, vatMinor: 0, totalMinor: 0 }],
  ])("%s", (_name, lines, delivery, totals) => {
    expect(orderTotals(lines, delivery)).toEqual(totals);
  });
});
