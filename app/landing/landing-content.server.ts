import landingFile from "../../content/landing/landing.json";
import productsFile from "../../content/catalog/products.json";
import { offerForRoute } from "../catalog/catalog.server";
import { parseContent } from "../platform/content-file";
import { quizzes } from "../funnel/content.server";
import { defaultLocale, localeCodes } from "../market/markets";
import { landingFileSchema, landingTextsSchema, type LandingFile, type LandingTexts } from "./content-schema";

const textFiles = import.meta.glob<unknown>("../../content/landing/[a-z][a-z]_[A-Z][A-Z].json", { eager: true, import: "default" });

const localeOf = (path: string) => path.replace(/^.*\/(\w+)\.json$/, "$1");

// Parsed when the server build is loaded (the build's prerendering does): a bad file fails the
// build naming the file, the field and the rule.
export const landing = parseContent("content/landing/landing.json", landingFileSchema, landingFile);

const landingTexts = new Map<string, LandingTexts>(
  Object.entries(textFiles).map(([path, data]) => [localeOf(path), parseContent(`content/landing/${localeOf(path)}.json`, landingTextsSchema, data)]),
);

/** What the schemas cannot see: the catalog, the quizzes and every market's words. */
export function crossCheckLanding(file: LandingFile = landing, locales: readonly string[] = [...landingTexts.keys()]): string[] {
  const problems: string[] = [];
  const path = "content/landing/landing.json";
  if (!(file.quiz in quizzes.variants)) problems.push(`${path}: quiz: no quiz "${file.quiz}" in content/funnel/quizzes.json`);
  file.range.forEach((item, index) => {
    const product = productsFile.products.find((candidate) => candidate.id === item.product);
    if (!product) {
      problems.push(`${path}: range.${index}.product: no product "${item.product}" in content/catalog/products.json`);
      return;
    }
    // Prices play no part here: any currency and day tell which products a route sells.
    const sold = offerForRoute(item.offer, "EUR", new Date(), "en_GB").lines.map((line) => line.productId);
    if (!sold.includes(item.product)) {
      problems.push(`${path}: range.${index}.offer: route "${item.offer}" sells ${[...new Set(sold)].join(", ")}, not "${item.product}"`);
    }
  });
  for (const locale of localeCodes) {
    if (!locales.includes(locale)) problems.push(`content/landing/${locale}.json: missing (every market needs its landing page)`);
  }
  return problems;
}

const problems = crossCheckLanding();
if (problems.length > 0) throw new Error(`Invalid content\n${problems.join("\n")}`);

export function landingTextsFor(lang: string): LandingTexts {
  const texts = landingTexts.get(lang) ?? landingTexts.get(defaultLocale);
  if (!texts) throw new Error(`No landing texts for ${lang} or ${defaultLocale}`);
  return texts;
}

/** A catalog product's name, kind and image, for a product the landing file names. */
export function catalogProduct(id: string) {
  const product = productsFile.products.find((candidate) => candidate.id === id);
  if (!product) throw new Error(`No product "${id}"`);
  return { id: product.id, name: product.name, kind: product.kind, image: product.image };
}
