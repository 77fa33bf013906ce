import { describe, expect, it } from "vitest";
import { discountOf } from "../codes/code-terms";
import { marketFor, type CountryCode } from "../market/markets";
import { includedVat } from "./pricing";
import { discountedQuote, quoteCheckout } from "./quote.server";

const today = new Date("2026-11-23T12:00:00Z");

function quoteFor(country: CountryCode, bundle: string) {
  const market = marketFor(country);
  const quote = quoteCheckout(market, bundle, today);
  if (!quote) throw new Error(`${bundle} is not for sale in ${country}`);
  return { market, quote };
}

describe("a checkout's quote with a code", () => {
  it.each([
    // country, bundle, percent off: euros and Swedish kronor, a share that rounds half up.
    ["DE", "shape-3", 10],
    ["DE", "shape-1", 15],
    ["SE", "shape-3", 10],
    ["SE", "shape-1", 33],
    ["FR", "shape-3", 7],
  ] as const)("in %s, %s at %i %% off: lines, VAT per line and totals follow; delivery keeps its price", (country, bundle, percent) => {
    const { market, quote } = quoteFor(country, bundle);
    const itemsBefore = quote.totals.itemsMinor;
    const discountMinor = discountOf({ kind: "percent", percent }, market.currency, itemsBefore);
    expect(discountMinor).toBe(Math.round((itemsBefore * percent) / 100));
    const coded = discountedQuote(market, quote, { code: "TEST", discountMinor });
    expect(coded.discount).toEqual({ code: "TEST", discountMinor });
    expect(coded.currency).toBe(market.currency);
    expect(coded.totals.itemsMinor).toBe(itemsBefore - discountMinor);
    expect(coded.totals.deliveryMinor).toBe(quote.totals.deliveryMinor);
    expect(coded.totals.totalMinor).toBe(quote.totals.totalMinor - discountMinor);
    for (const [index, line] of coded.lines.entries()) {
      expect(line.grossMinor + (line.discountMinor ?? 0)).toBe(quote.lines[index]?.grossMinor);
      expect(line.vatMinor).toBe(includedVat(line.grossMinor, line.vatRateBp));
    }
    const linesVat = coded.lines.reduce((sum, line) => sum + line.vatMinor, 0);
    expect(coded.totals.vatMinor).toBe(linesVat + includedVat(coded.totals.deliveryMinor, coded.totals.deliveryVatRateBp));
  });

  it("takes a fixed amount in the market's own currency, and never more than the lines", () => {
    const reduction = { kind: "amount", amountMinor: { EUR: 500, SEK: 5000 } } as const;
    const de = quoteFor("DE", "shape-3");
    expect(discountedQuote(de.market, de.quote, { code: "FIVE", discountMinor: discountOf(reduction, "EUR", de.quote.totals.itemsMinor) }).totals.itemsMinor).toBe(de.quote.totals.itemsMinor - 500);
    const se = quoteFor("SE", "shape-3");
    expect(discountedQuote(se.market, se.quote, { code: "FIVE", discountMinor: discountOf(reduction, "SEK", se.quote.totals.itemsMinor) }).totals.itemsMinor).toBe(se.quote.totals.itemsMinor - 5000);
    expect(discountOf({ kind: "amount", amountMinor: { EUR: 1_000_000 } }, "EUR", 8970)).toBe(8970);
  });

  it("leaves the quote without a code as it was: a code never changes a price", () => {
    const { market, quote } = quoteFor("DE", "shape-3");
    const before = structuredClone(quote);
    discountedQuote(market, quote, { code: "TEST", discountMinor: 897 });
    expect(quote).toEqual(before);
  });
});
