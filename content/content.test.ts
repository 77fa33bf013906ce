import { existsSync, readFileSync } from "node:fs";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import products from "./catalog/products.json";
import { currencies } from "../app/catalog/schema";
import { crossCheckFunnel, funnelTextsFor, locales, productTextFor } from "../app/funnel/content.server";
import { localeCodes } from "../app/market/markets";
import { productTextsSchema } from "../app/funnel/content-schema";
import { parseContent } from "../app/platform/content-file";
import { legalTextsFor } from "../app/legal/legal-texts.server";
import { mailTextsFor } from "../app/mail/mail-texts.server";

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
      // Loaded texts keep each amount on one line with its unit ("3 g", "2 Kapseln").
      expect(JSON.stringify(text), `${id} in ${locale}`).not.toMatch(/\d (?=[\p{L}%µ])/u);
    }
  });

  it.each(localeCodes)("%s: no value of the funnel texts is left in English", (locale) => {
    if (locale === "en_GB") return;
    const english = JSON.stringify(funnelTextsFor("en_GB").results);
    expect(JSON.stringify(funnelTextsFor(locale).results)).not.toBe(english);
  });
});

describe("product names", () => {
  it("fail the build when a locale's product file lacks one, naming the file and the field", () => {
    const file = JSON.parse(readFileSync(new URL("./products/sv_SE.json", import.meta.url), "utf8")) as Record<string, Record<string, unknown>>;
    delete file.ebook?.name;
    expect(() => parseContent("content/products/sv_SE.json", productTextsSchema, file)).toThrow("content/products/sv_SE.json: ebook.name");
  });

  it.each(localeCodes.filter((locale) => locale !== "en_GB"))("%s names the digital products in its own language", (locale) => {
    for (const product of products.products.filter((candidate) => candidate.kind === "digital")) {
      expect(productTextFor(locale, product.id).name, `${product.id} in ${locale}`).not.toBe(productTextFor("en_GB", product.id).name);
    }
  });
});

/** Every text of a nested texts object, by its dotted key. */
function flatTexts(value: unknown, path = ""): [string, string][] {
  if (typeof value === "string") return [[path, value]];
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => flatTexts(child, path ? `${path}.${key}` : key));
}

/** Names of the ICU arguments a message uses, e.g. `{amount}` and `{units, plural, ...}`. */
function argumentNames(message: string, locale: string): string[] {
  const names = new Set<string>();
  const visit = (elements: unknown[]) => {
    for (const element of elements as { type: number; value?: unknown; options?: Record<string, { value: unknown[] }> }[]) {
      if (element.type !== 0 && typeof element.value === "string") names.add(element.value);
      for (const option of Object.values(element.options ?? {})) visit(option.value);
    }
  };
  visit(new IntlMessageFormat(message, locale.replace("_", "-")).getAst());
  return [...names].sort();
}

describe("e-mail texts", () => {
  const english = mailTextsFor("en_GB");

  it.each(localeCodes)("%s has its own file whose messages parse and use the same arguments as en_GB", (locale) => {
    expect(existsSync(new URL(`./mail/${locale}.json`, import.meta.url))).toBe(true);
    const source = new Map(flatTexts(english));
    for (const [key, message] of flatTexts(mailTextsFor(locale))) {
      expect(argumentNames(message, locale), `${locale} ${key}`).toEqual(argumentNames(source.get(key) ?? "", "en_GB"));
    }
  });

  it.each(localeCodes.filter((locale) => locale !== "en_GB"))("%s: the refund e-mail is translated", (locale) => {
    const untranslated = flatTexts(mailTextsFor(locale).refund).filter(([key, text]) => text === (english.refund as Record<string, string>)[key]);
    expect(untranslated).toEqual([]);
  });

  it("Swiss German never uses ß", () => {
    expect(flatTexts(mailTextsFor("ch_CH")).filter(([, text]) => text.includes("ß"))).toEqual([]);
  });
});
