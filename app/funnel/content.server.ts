import quizzesFile from "../../content/funnel/quizzes.json";
import upsellsFile from "../../content/funnel/upsells.json";
import productsFile from "../../content/catalog/products.json";
import { parseContent } from "../platform/content-file";
import { defaultLocale } from "../market/markets";
import { funnelTextsSchema, productTextsSchema, quizzesFileSchema, upsellsFileSchema, type FunnelTexts, type ProductText } from "./content-schema";
import { isRouteName } from "./route-table";

const funnelFiles = import.meta.glob<unknown>("../../content/funnel/[a-z][a-z]_[A-Z][A-Z].json", { eager: true, import: "default" });
const productFiles = import.meta.glob<unknown>("../../content/products/*.json", { eager: true, import: "default" });

const localeOf = (path: string) => path.replace(/^.*\/(\w+)\.json$/, "$1");

// Parsed when the server build is loaded (the build's prerendering does): a bad file fails the
// build naming the file, the field and the rule.
export const quizzes = parseContent("content/funnel/quizzes.json", quizzesFileSchema, quizzesFile);
export const upsells = parseContent("content/funnel/upsells.json", upsellsFileSchema, upsellsFile);

const funnelTexts = new Map<string, FunnelTexts>(
  Object.entries(funnelFiles).map(([path, data]) => [localeOf(path), parseContent(`content/funnel/${localeOf(path)}.json`, funnelTextsSchema, data)]),
);
const productTexts = new Map<string, Record<string, ProductText>>(
  Object.entries(productFiles).map(([path, data]) => [localeOf(path), parseContent(`content/products/${localeOf(path)}.json`, productTextsSchema, data)]),
);

/** Cross-references between the funnel files and the catalog and route table. */
export function crossCheckFunnel(): string[] {
  const problems: string[] = [];
  const bundleIds = new Set(productsFile.products.flatMap((product) => product.bundles.map((bundle) => bundle.id)));
  const productIds = new Set(productsFile.products.map((product) => product.id));
  for (const [route, upsell] of Object.entries(upsells.upsells)) {
    if (!isRouteName(route)) problems.push(`content/funnel/upsells.json: upsells.${route}: no route named "${route}"`);
    if (!bundleIds.has(upsell.bundle)) problems.push(`content/funnel/upsells.json: upsells.${route}.bundle: no bundle "${upsell.bundle}"`);
    if (!isRouteName(upsell.next)) problems.push(`content/funnel/upsells.json: upsells.${route}.next: no route named "${upsell.next}"`);
  }
  for (const [goal, product] of Object.entries(quizzes.goalProducts)) {
    if (!productIds.has(product)) problems.push(`content/funnel/quizzes.json: goalProducts.${goal}: no product "${product}"`);
  }
  for (const [route, product] of Object.entries(upsells.productPages)) {
    if (!productIds.has(product)) problems.push(`content/funnel/upsells.json: productPages.${route}: no product "${product}"`);
  }
  for (const [locale, texts] of funnelTexts) {
    for (const [id, question] of Object.entries(quizzes.questions)) {
      const written = texts.questions[id];
      if (!written) problems.push(`content/funnel/${locale}.json: questions.${id}: missing`);
      for (const option of "options" in question ? question.options : []) {
        if (!written?.options[option]) problems.push(`content/funnel/${locale}.json: questions.${id}.options.${option}: missing`);
      }
    }
    for (const variant of Object.keys(quizzes.variants)) {
      if (!texts.variants[variant]) problems.push(`content/funnel/${locale}.json: variants.${variant}: missing`);
    }
  }
  for (const [locale, texts] of productTexts) {
    for (const product of productsFile.products) {
      const written = texts[product.id];
      if (!written) problems.push(`content/products/${locale}.json: ${product.id}: missing`);
      else if (product.kind === "supplement" && !written.particulars) {
        problems.push(`content/products/${locale}.json: ${product.id}.particulars: a food supplement needs its particulars`);
      }
    }
  }
  return problems;
}

const problems = crossCheckFunnel();
if (problems.length > 0) throw new Error(`Invalid content\n${problems.join("\n")}`);

export function funnelTextsFor(lang: string): FunnelTexts {
  const texts = funnelTexts.get(lang) ?? funnelTexts.get(defaultLocale);
  if (!texts) throw new Error(`No funnel texts for ${lang} or ${defaultLocale}`);
  return texts;
}

export function productTextFor(lang: string, productId: string): ProductText {
  const text = (productTexts.get(lang) ?? productTexts.get(defaultLocale))?.[productId];
  if (!text) throw new Error(`No text for product ${productId} in ${lang}`);
  return text;
}

export function locales(): { funnel: string[]; products: string[] } {
  return { funnel: [...funnelTexts.keys()], products: [...productTexts.keys()] };
}
