import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import products from "./catalog/products.json";
import { currencies } from "../app/catalog/schema";
import { crossCheckFunnel, funnelTextsFor, locales, productTextFor } from "../app/funnel/content.server";
import { localeCodes } from "../app/market/markets";
import { legalTextsFor } from "../app/chrome/legal-texts.server";

describe("content for every market", () => {
  it("has funnel texts, product texts and legal texts in every locale", () => {
    expect(locales().funnel.sort()).toEqual([...localeCodes].sort());
    expect(locales().products.sort()).toEqual([...localeCodes].sort());
    for (const locale of localeCodes) expect(legalTextsFor(locale)).toBeDefined();
  });

  it("agrees with the catalog, the quizzes and the route table", () => {
    expect(crossCheckFunnel()).toEqual([]);
  });

  it.each(products.products.map((product) => [product.id, product] as const))("%s has prices, an image, texts and particulars", (id, product) => {
    for (const bundle of product.bundles) {
      for (const currency of currencies) expect(bundle.prices[currency], `${bundle.id} ${currency}`).toBeDefined();
    }
    expect(existsSync(new URL(`./images/${product.image}.svg`, import.meta.url))).toBe(true);
    for (const locale of localeCodes) {
      const text = productTextFor(locale, id);
      expect(text.benefits.length).toBeGreaterThan(0);
      if (product.kind === "supplement") expect(text.particulars, `${id} in ${locale}`).not.toBeNull();
    }
  });

  it.each(localeCodes)("%s: no value of the funnel texts is left in English", (locale) => {
    if (locale === "en_GB") return;
    const english = JSON.stringify(funnelTextsFor("en_GB").results);
    expect(JSON.stringify(funnelTextsFor(locale).results)).not.toBe(english);
  });
});
