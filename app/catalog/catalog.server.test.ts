import { describe, expect, it } from "vitest";
import offersFile from "../../content/catalog/offers.json";
import productsFile from "../../content/catalog/products.json";
import { currencies, offersFileSchema, productsFileSchema } from "./schema";
import { parseContent } from "../platform/content-file";
import { crossCheck, offerForRoute, offerIdForRoute, pricedBundle } from "./catalog.server";
import { bannerSavingsPercent } from "./offer-view";

const today = new Date("2026-11-21T12:00:00Z");

describe("catalog content", () => {
  it("is valid and every reference resolves", () => {
    const products = parseContent("products.json", productsFileSchema, productsFile);
    const offers = parseContent("offers.json", offersFileSchema, offersFile);
    expect(crossCheck(products, offers)).toEqual([]);
  });

  it.each([
    [{ products: [{ id: "x", name: "X", kind: "supplement", image: "i", bundles: [{ id: "x-1", units: 0, prices: {} }] }] }, "products.json: products.0.bundles.0.units: must be at least 1"],
    [{ products: [{ id: "X Y", name: "X", kind: "supplement", image: "i", bundles: [] }] }, "products.json: products.0.id: must be lower-case letters, digits and dashes"],
    [{ products: [] }, "products.json: products:"],
  ])("names the file, the field and the rule of a bad file (%#)", (data, message) => {
    expect(() => parseContent("products.json", productsFileSchema, data)).toThrow(message);
  });

  it("fails the build on a reduction without an end date", () => {
    const products = parseContent("products.json", productsFileSchema, productsFile);
    const [shape, ...others] = products.products;
    const [single] = shape?.bundles ?? [];
    if (!shape || !single) throw new Error("the catalog starts with a product and a bundle");
    const endless = { ...shape, bundles: [{ ...single, prices: { ...single.prices, EUR: [{ from: "2026-06-01", grossMinor: 4990 }, { from: "2026-11-01", grossMinor: 3990 }] } }] };
    const offers = parseContent("offers.json", offersFileSchema, offersFile);
    expect(crossCheck({ products: [endless, ...others] }, offers)).toContain(
      "content/catalog/products.json: products.0.bundles.0.prices.EUR: the reduction from 2026-11-01 has no end (until)",
    );
  });

  it("finds a missing bundle and an unknown route", () => {
    const products = parseContent("products.json", productsFileSchema, productsFile);
    const problems = crossCheck(products, {
      offers: { a: { lines: ["shape-1", "nope-3"], mostPopular: "shape-1" } },
      defaultOffer: "a",
      offerByRoute: { nosuchroute: "a" },
    });
    expect(problems).toEqual([
      'content/catalog/offers.json: offers.a.lines.1: no bundle "nope-3" in content/catalog/products.json',
      'content/catalog/offers.json: offerByRoute.nosuchroute: no route named "nosuchroute"',
    ]);
  });
});

describe("offers", () => {
  it.each([
    ["offer", "shape"],
    ["offer-2", "shape"],
    ["offersalt-2", "salt"],
    ["lionoffer", "lion"],
    ["get2", "shape"],
    ["v8offer-2", "glucose"],
  ])("%s sells %s", (route, offerId) => {
    expect(offerIdForRoute(route)).toBe(offerId);
  });

  it.each(currencies)("prices every offer in %s with a genuine saving on the second product", (currency) => {
    for (const route of ["offer", "offercoll", "lionoffer", "offersalt", "v8offer", "fibergum"]) {
      const offer = offerForRoute(route, currency, today, "en_GB");
      expect(offer.lines.length).toBeGreaterThanOrEqual(2);
      const percent = bannerSavingsPercent(offer);
      expect(percent).toBeGreaterThan(0);
      const second = offer.lines[1];
      expect(second?.referenceMinor).toBeGreaterThan(second?.priceMinor ?? Infinity);
    }
  });

  it("computes the Vitanor Shape figures", () => {
    const offer = offerForRoute("offer", "EUR", today, "de_DE");
    expect(offer.lines.map((line) => [line.units, line.priceMinor, line.unitPriceMinor, line.savings.percent])).toEqual([
      [1, 3990, 3990, 20],
      [3, 8970, 2990, 25],
      [6, 14940, 2490, 29],
    ]);
    expect(offer.lines.filter((line) => line.mostPopular).map((line) => line.units)).toEqual([3]);
    expect(offer.lines.map((line) => [line.offerEndsAt, line.afterOfferMinor])).toEqual([
      [Date.parse("2026-12-31T23:00:00Z"), 4990],
      [Date.parse("2026-12-31T23:00:00Z"), 11970],
      [Date.parse("2026-12-31T23:00:00Z"), 20940],
    ]);
  });

  it.each([
    ["de_DE", "Vitanor Everyday Recipes (E-Book)"],
    ["sv_SE", "Vitanor Everyday Recipes (e-bok)"],
    ["da_DK", "Vitanor Everyday Recipes (e-bog)"],
    ["en_GB", "Vitanor Everyday Recipes ebook"],
  ])("names a product in the buyer's language (%s)", (lang, name) => {
    expect(pricedBundle("ebook-1", "EUR", today, lang).productName).toBe(name);
  });

  it("sells at the regular price, without saving, once the reduction has ended", () => {
    const offer = offerForRoute("offer", "EUR", new Date("2027-01-02T12:00:00Z"), "de_DE");
    expect(offer.lines.map((line) => [line.priceMinor, line.savings.percent, line.referenceMinor, line.offerEndsAt])).toEqual([
      [4990, null, null, null],
      [11970, null, null, null],
      [20940, null, null, null],
    ]);
  });
});
