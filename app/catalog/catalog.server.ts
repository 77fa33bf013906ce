import offersFile from "../../content/catalog/offers.json";
import productsFile from "../../content/catalog/products.json";
import { productTextFor } from "../funnel/content.server";
import { isRouteName } from "../funnel/route-table";
import type { CurrencyCode } from "../market/markets";
import { unitPriceMinor } from "../market/money";
import type { OfferLine, OfferView } from "./offer-view";
import { currentPrice, reductionsWithoutEnd, referencePrice, runningReduction, savingsPercent } from "./savings";
import { offersFileSchema, productsFileSchema, type OffersFile, type ProductsFile } from "./schema";
import { parseContent } from "../platform/content-file";

const productsPath = "content/catalog/products.json";
const offersPath = "content/catalog/offers.json";

/** Checks that the two catalog files agree with each other: every reference resolves. */
export function crossCheck(products: ProductsFile, offers: OffersFile): string[] {
  const bundleIds = new Set(products.products.flatMap((product) => product.bundles.map((bundle) => bundle.id)));
  const problems: string[] = [];
  for (const [index, product] of products.products.entries()) {
    for (const [bundleIndex, bundle] of product.bundles.entries()) {
      for (const [currency, history] of Object.entries(bundle.prices)) {
        for (const from of reductionsWithoutEnd(history)) {
          problems.push(`${productsPath}: products.${index}.bundles.${bundleIndex}.prices.${currency}: the reduction from ${from} has no end (until)`);
        }
      }
    }
  }
  for (const [offerId, offer] of Object.entries(offers.offers)) {
    offer.lines.forEach((line, index) => {
      if (!bundleIds.has(line)) problems.push(`${offersPath}: offers.${offerId}.lines.${index}: no bundle "${line}" in ${productsPath}`);
    });
    if (offer.bump !== undefined && !bundleIds.has(offer.bump)) problems.push(`${offersPath}: offers.${offerId}.bump: no bundle "${offer.bump}" in ${productsPath}`);
    if (offer.bump !== undefined && offer.lines.includes(offer.bump)) problems.push(`${offersPath}: offers.${offerId}.bump: "${offer.bump}" is already one of the offer's lines`);
  }
  if (!(offers.defaultOffer in offers.offers)) problems.push(`${offersPath}: defaultOffer: no offer "${offers.defaultOffer}"`);
  for (const [route, offerId] of Object.entries(offers.offerByRoute)) {
    if (!isRouteName(route)) problems.push(`${offersPath}: offerByRoute.${route}: no route named "${route}"`);
    if (!(offerId in offers.offers)) problems.push(`${offersPath}: offerByRoute.${route}: no offer "${offerId}"`);
  }
  return problems;
}

function loadCatalog() {
  const products = parseContent(productsPath, productsFileSchema, productsFile);
  const offers = parseContent(offersPath, offersFileSchema, offersFile);
  const problems = crossCheck(products, offers);
  if (problems.length > 0) throw new Error(`Invalid content\n${problems.join("\n")}`);
  return { products, offers };
}

// Loaded when the server build is first imported, which the build's prerendering does: a bad
// content file fails the build with the file, the field and the rule.
const catalog = loadCatalog();

const bundles = new Map(
  catalog.products.products.flatMap((product) => product.bundles.map((bundle) => [bundle.id, { product, bundle }] as const)),
);

/** Twins share their plain route's offer: `offersalt-2` sells what `offersalt` sells. */
function plainRouteName(routeName: string): string {
  return routeName === "get2" ? "get" : routeName.replace(/-2$/, "");
}

export function offerIdForRoute(routeName: string): string {
  return catalog.offers.offerByRoute[plainRouteName(routeName)] ?? catalog.offers.defaultOffer;
}

/** A product's name in the buyer's language (`content/products/<locale>.json`, checked at build). */
export function productNameIn(lang: string, productId: string): string {
  return productTextFor(lang, productId).name;
}

function priceLine(lineId: string, currency: CurrencyCode, today: Date, lang: string, mostPopular: boolean): OfferLine {
  const entry = bundles.get(lineId);
  if (!entry) throw new Error(`No bundle "${lineId}"`);
  const history = entry.bundle.prices[currency] ?? [];
  const price = currentPrice(history, today);
  if (!price) throw new Error(`Bundle "${lineId}" has no ${currency} price on ${today.toISOString().slice(0, 10)}`);
  const reduction = runningReduction(history, today);
  return {
    bundleId: entry.bundle.id,
    productId: entry.product.id,
    productName: productNameIn(lang, entry.product.id),
    kind: entry.product.kind,
    image: entry.product.image,
    units: entry.bundle.units,
    currency,
    priceMinor: price.grossMinor,
    unitPriceMinor: unitPriceMinor(price.grossMinor, entry.bundle.units),
    referenceMinor: referencePrice(history, today) ?? null,
    savings: { percent: savingsPercent(history, today) },
    offerEndsAt: reduction?.endsAt ?? null,
    afterOfferMinor: reduction?.afterMinor ?? null,
    mostPopular,
  };
}

/** One bundle priced for a currency on a day and named in a locale (upsells sell a single bundle). */
export function pricedBundle(bundleId: string, currency: CurrencyCode, today: Date, lang: string): OfferLine {
  return priceLine(bundleId, currency, today, lang, false);
}

/** The bundles a visitor can choose on some offer page, and so take to the checkout. */
const offeredBundles = new Set(Object.values(catalog.offers.offers).flatMap((offer) => offer.lines));

export function isOfferedBundle(bundleId: string): boolean {
  return offeredBundles.has(bundleId);
}

/** The add-on the checkout offers with a bundle: its offer's bump, or null (a bundle sold alone, an offer without one). */
export function bumpOf(bundleId: string): string | null {
  return Object.values(catalog.offers.offers).find((offer) => offer.lines.includes(bundleId))?.bump ?? null;
}

/** The bundles offered as a bump on some offer's checkout. */
export function bumpBundles(): string[] {
  return [...new Set(Object.values(catalog.offers.offers).flatMap((offer) => (offer.bump ? [offer.bump] : [])))];
}

/** The VAT class of a bundle's product (`content/commerce/vat.json`). */
export function vatClassOf(bundleId: string) {
  const entry = bundles.get(bundleId);
  if (!entry) throw new Error(`No bundle "${bundleId}"`);
  return entry.product.vatClass;
}

/** The offer a route sells, priced for one currency on one day, named in a locale. */
export function offerForRoute(routeName: string, currency: CurrencyCode, today: Date, lang: string): OfferView {
  const id = offerIdForRoute(routeName);
  const offer = catalog.offers.offers[id];
  if (!offer) throw new Error(`No offer "${id}"`);
  const lines = offer.lines.map((lineId) => priceLine(lineId, currency, today, lang, lineId === offer.mostPopular));
  return { id, lines, pricedAt: today.getTime() };
}

const productIds = new Set(catalog.products.products.map((product) => product.id));

/**
 * An order line's product named in a locale at the moment it is shown; a product no longer in
 * the catalog keeps the name stored with the line.
 */
export function lineNameIn(lang: string, line: { productId: string; productName: string }): string {
  return productIds.has(line.productId) ? productNameIn(lang, line.productId) : line.productName;
}

export function isProductId(id: string): boolean {
  return productIds.has(id);
}

/** The products delivered as files (ebooks, audio programmes), by id and name. */
export function digitalProducts(): { id: string; name: string }[] {
  return catalog.products.products.filter((product) => product.kind === "digital").map(({ id, name }) => ({ id, name }));
}

/** A product's image path under `content/images/` (`products/shape`). */
export function productImageOf(productId: string): string {
  const product = catalog.products.products.find((candidate) => candidate.id === productId);
  if (!product) throw new Error(`No product "${productId}"`);
  return product.image;
}
