import { describe, expect, it } from "vitest";
import { marketFor, type CountryCode } from "./markets";
import { formatMoney, formatPercent, unitPriceMinor } from "./money";

// Intl separates numbers and symbols with (narrow) no-break spaces; compare them as plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe.each([
  ["FR", "1 234,50 €", "0,50 €", "40 %"],
  ["DE", "1.234,50 €", "0,50 €", "40 %"],
  ["BE", "1 234,50 €", "0,50 €", "40 %"],
  ["GB", "£1,234.50", "£0.50", "40%"],
  ["AT", "€ 1.234,50", "€ 0,50", "40 %"],
  ["SE", "1 234,50 kr", "0,50 kr", "40 %"],
  ["DK", "1.234,50 kr.", "0,50 kr.", "40 %"],
  ["FI", "1 234,50 €", "0,50 €", "40 %"],
  ["CH", "CHF 1’234.50", "CHF 0.50", "40%"],
  ["CH-FR", "1 234.50 CHF", "0.50 CHF", "40%"],
  ["ES", "1234,50 €", "0,50 €", "40 %"],
  ["IT", "1234,50 €", "0,50 €", "40%"],
] as const)("%s", (country, large, small, percent) => {
  const market = marketFor(country as CountryCode);

  it(`writes 1234.50 as ${large} and 0.50 as ${small}`, () => {
    expect(plain(formatMoney(123450, market)).replace("'", "’")).toBe(large);
    expect(plain(formatMoney(50, market))).toBe(small);
  });

  it(`writes 40 percent as ${percent}`, () => {
    expect(plain(formatPercent(40, market.languageTag))).toBe(percent);
  });
});

describe("unitPriceMinor", () => {
  it.each([
    [8970, 3, 2990],
    [14940, 6, 2490],
    [1000, 3, 333],
    [999, 2, 500],
  ])("%i over %i units is %i", (total, units, unit) => {
    expect(unitPriceMinor(total, units)).toBe(unit);
  });

  it.each([0, -1, 1.5])("refuses %d units", (units) => {
    expect(() => unitPriceMinor(1000, units)).toThrow(RangeError);
  });
});
