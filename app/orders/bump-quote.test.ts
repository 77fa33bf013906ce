import { describe, expect, it } from "vitest";
import { bumpOf, vatClassOf } from "../catalog/catalog.server";
import { discountOf } from "../codes/code-terms";
import { marketFor, type CountryCode } from "../market/markets";
import { vatRateBp } from "./commerce-content.server";
import { includedVat } from "./pricing";
import { discountedQuote, quoteCheckout, quoteLine } from "./quote.server";

const today = new Date("2026-11-23T12:00:00Z");

function quotesFor(country: CountryCode, bundle: string) {
  const market = marketFor(country);
  const plain = quoteCheckout(market, bundle, today);
  const bumped = quoteCheckout(market, bundle, today, { bump: true });
  if (!plain || !bumped) throw new Error(`${bundle} is not for sale in ${country}`);
  return { market, plain, bumped };
}

describe("a checkout's quote with the offer's add-on", () => {
  it.each([
    // country, bundle, percent off (0: no code): euros and Swedish kronor, a digital and a second add-on.
    ["DE", "shape-3", 0],
    ["DE", "shape-3", 10],
    ["DE", "lion-1", 15],
    ["SE", "shape-1", 0],
    ["SE", "shape-6", 33],
    ["SE", "lion-3", 7],
  ] as const)("in %s, %s with its add-on at %i %% off: a second line at the catalog's price, the code spread over both, VAT per line", (country, bundle, percent) => {
    const { market, plain, bumped } = quotesFor(country, bundle);
    const bumpBundle = bumpOf(bundle);
    expect(bumpBundle).not.toBeNull();
    const bumpLine = quoteLine(market, bumpBundle ?? "", today);
    expect(bumped.lines.map((line) => line.bundleId)).toEqual([bundle, bumpBundle]);
    expect(bumped.lines[0]).toEqual(plain.lines[0]);
    expect(bumped.lines[1]).toEqual(bumpLine);
    expect(bumped.totals.itemsMinor).toBe(plain.totals.itemsMinor + bumpLine.grossMinor);
    expect(bumped.totals.deliveryMinor).toBe(plain.totals.deliveryMinor);

    const discountMinor = percent === 0 ? 0 : discountOf({ kind: "percent", percent }, market.currency, bumped.totals.itemsMinor);
    const quote = percent === 0 ? bumped : discountedQuote(market, bumped, { code: "TEST", discountMinor });
    expect(quote.lines.reduce((sum, line) => sum + (line.discountMinor ?? 0), 0)).toBe(discountMinor);
    expect(quote.totals.totalMinor).toBe(bumped.totals.totalMinor - discountMinor);
    for (const [index, line] of quote.lines.entries()) {
      expect(line.grossMinor + (line.discountMinor ?? 0)).toBe(bumped.lines[index]?.grossMinor);
      // Each line keeps its own product's rate: a supplement's and an ebook's or audio programme's differ in some markets.
      expect(line.vatRateBp).toBe(vatRateBp(market, vatClassOf(line.bundleId), today));
      expect(line.vatMinor).toBe(includedVat(line.grossMinor, line.vatRateBp));
    }
    const linesVat = quote.lines.reduce((sum, line) => sum + line.vatMinor, 0);
    expect(quote.totals.vatMinor).toBe(linesVat + includedVat(quote.totals.deliveryMinor, quote.totals.deliveryVatRateBp));
  });

  it("spreads a code over the bundle and the add-on in proportion to their prices", () => {
    const { market, bumped } = quotesFor("DE", "shape-3");
    const [bundle, bump] = discountedQuote(market, bumped, { code: "TEST", discountMinor: 998 }).lines;
    // 89,70 € and 9,90 €: nine tenths of the discount on the bundle, the rest on the add-on.
    expect(bundle?.discountMinor).toBe(Math.round((998 * 8970) / 9960));
    expect((bundle?.discountMinor ?? 0) + (bump?.discountMinor ?? 0)).toBe(998);
  });

  it("adds nothing for a bundle sold without an add-on, nor without the box ticked", () => {
    const market = marketFor("DE");
    expect(bumpOf("mind-1")).toBeNull();
    expect(quoteCheckout(market, "mind-1", today, { bump: true })?.lines).toHaveLength(1);
    expect(quoteCheckout(market, "shape-3", today, { bump: false })?.lines).toHaveLength(1);
  });
});
