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

/**
 * Wording that tells a visitor a price or an offer is held for them alone. Every visitor gets the
 * same prices, so such a sentence is untrue and a pressure the Unfair Commercial Practices
 * Directive forbids. A sentence is refused when it has both a word of keeping something for the
 * reader and a word of price or offer. (A welcome code is issued to each visitor, so calling it
 * personal is true; saying it was kept or set aside for them is not.)
 */
const heldForTheVisitor: Record<string, { held: RegExp; offer: RegExp }> = {
  de: { held: /reserviert|zurückgelegt|nur für sie/i, offer: /preis|angebot|gutschein|rabatt/i },
  fr: { held: /réserv|mis de côté|rien que pour vous/i, offer: /prix|offre|code promo|réduction|remise|coupon/i },
  en: { held: /reserved|set aside|held for you|just for you|only for you/i, offer: /price|offer|coupon|discount/i },
  es: { held: /reservad|solo para ti/i, offer: /precio|oferta|cupón|descuento/i },
  it: { held: /riservat|messo da parte|solo per te/i, offer: /prezzo|offerta|coupon|sconto/i },
  sv: { held: /reserver|sparat|bara för dig/i, offer: /pris|erbjudande|rabatt/i },
  da: { held: /reserver|til side|kun til dig/i, offer: /pris|tilbud|rabat/i },
  fi: { held: /varattu|varann|vain sinulle/i, offer: /hinta|hinna|tarjou|alennu/i },
};
/** The language a locale is written in: Swiss German is German, Swiss French French. */
const languageOf = (locale: string) => ({ ch_CH: "de", ch_FR: "fr" })[locale] ?? locale.slice(0, 2);

/** The sentences of a locale's copy that say a price or an offer is kept for the reader. */
function offersHeldForTheVisitor(locale: string, texts: [string, string][]): string[] {
  const words = heldForTheVisitor[languageOf(locale)];
  if (!words) throw new Error(`No wording check for ${locale}`);
  return texts.flatMap(([key, text]) =>
    text
      .split(/(?<=[.!?])\s+/)
      .filter((sentence) => words.held.test(sentence) && words.offer.test(sentence))
      .map((sentence) => `${key}: ${sentence}`),
  );
}

/** Every folder of content/ with a file per locale: the copy a buyer reads. */
const localeFolders = ["checkout", "funnel", "landing", "legal", "mail", "messages", "products", "reviews"];

describe("prices and offers", () => {
  it.each(localeCodes)("%s never says a price or an offer is reserved for the visitor", (locale) => {
    const texts = localeFolders.flatMap((folder) => {
      const file = new URL(`./${folder}/${locale}.json`, import.meta.url);
      return existsSync(file) ? flatTexts(JSON.parse(readFileSync(file, "utf8")), folder) : [];
    });
    expect(texts.length).toBeGreaterThan(0);
    expect(offersHeldForTheVisitor(locale, texts)).toEqual([]);
  });

  it.each([
    ["de_DE", "Am Ende schlagen wir Ihnen die passende Routine vor – zusammen mit einem Sonderpreis, den wir für Sie reserviert haben."],
    ["ch_CH", "Wir haben einen Gutschein für Ihre erste Bestellung für Sie zurückgelegt."],
    ["fr_FR", "À la fin, nous vous suggérerons la routine qui vous correspond, avec un prix spécial qui vous est réservé."],
    ["ch_FR", "Nous vous avons réservé un code de réduction pour votre première commande."],
    ["en_GB", "At the end, we’ll suggest the routine that suits you, together with a special price reserved for you."],
    ["es_ES", "Al final te sugeriremos la rutina que mejor te encaja, junto con un precio especial reservado para ti."],
    ["it_IT", "Alla fine ti suggeriremo la routine più adatta a te, insieme a un prezzo speciale riservato a te."],
    ["sv_SE", "Till sist föreslår vi den rutin som passar dig, tillsammans med ett specialpris som är reserverat för dig."],
    ["da_DK", "Til sidst foreslår vi den rutine, der passer til dig, sammen med en særpris, der er reserveret til dig."],
    ["fi_FI", "Lopuksi ehdotamme sinulle sopivaa rutiinia sekä sinulle varattua erikoishintaa."],
  ])("%s: the check recognises a price held for the visitor", (locale, sentence) => {
    expect(offersHeldForTheVisitor(locale, [["intro", sentence]])).toEqual([`intro: ${sentence}`]);
  });
});
