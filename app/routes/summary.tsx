import { Suspense } from "react";
import { useLoaderData } from "react-router";
import type { Route } from "./+types/summary";
import { offerForRoute } from "../catalog/catalog.server";
import { loadPageOffer } from "../offer/offer-loader.server";
import { OrderNowButton } from "../chrome/order-now-button";
import { PageIntro } from "../chrome/page-intro";
import { useCarriedSearch } from "../funnel/carried-search";
import { funnelTextsFor, productTextFor, quizzes } from "../funnel/content.server";
import { summaryOfferRoute, summarySources } from "../funnel/order-target";
import { routeEntryForPath } from "../funnel/route-for-path";
import { SummaryResult, type OfferedProduct } from "../funnel/quiz/summary-result";
import { storefrontStateContext } from "../market/request-context";
import { deferredComponent } from "../platform/deferred-component";

// Only summarypop shows the bundles, and only at `step=bundle`: the cards' code (and the image
// component's) is loaded there, not with every summary page.
const ProductsSection = deferredComponent(() => import("../offer/products-section").then((module) => module.ProductsSection));

/**
 * The product each `src` leads to (the order-now button's target offer), so that the result
 * recommends only what the next page sells (docs/decisions/0033-quiz-recommends-what-its-offer-sells.md).
 */
function offeredProducts(routeName: string, currency: Parameters<typeof offerForRoute>[1], lang: string) {
  const products: Record<string, OfferedProduct> = {};
  const bySrc: Record<string, string> = {};
  for (const src of summarySources) {
    const line = offerForRoute(summaryOfferRoute(routeName, src), currency, new Date(), lang).lines[0];
    if (!line) continue;
    bySrc[src] = line.productId;
    products[line.productId] ??= { name: line.productName, tagline: productTextFor(lang, line.productId).tagline };
  }
  return { products, bySrc };
}

export function loader(args: Route.LoaderArgs) {
  const { lang, market } = args.context.get(storefrontStateContext);
  const texts = funnelTextsFor(lang);
  const pathname = new URL(args.request.url).pathname;
  const routeName = routeEntryForPath(pathname)?.name ?? "summary";
  // Only summarypop shows the bundles in place; the other summaries lead to an offer page.
  const isPop = pathname.toLowerCase().startsWith("/summarypop");
  return {
    texts: { results: texts.results, tips: texts.tips },
    offered: { ...offeredProducts(routeName, market.currency, lang), goalProducts: quizzes.goalProducts },
    offer: isPop ? loadPageOffer(args).offer : null,
  };
}

/** summary, summarypop and v1ip-summary; on summarypop `step=bundle` shows the bundles in place. */
export default function SummaryPage() {
  const { texts, offered, offer } = useLoaderData<typeof loader>();
  const step = new URLSearchParams(useCarriedSearch()).get("step");
  return (
    <>
      <PageIntro messagePrefix="pages.summary">
        <SummaryResult texts={texts} offered={offered} />
        <OrderNowButton />
      </PageIntro>
      {offer && step === "bundle" ? (
        <Suspense fallback={null}>
          <ProductsSection offer={offer} />
        </Suspense>
      ) : null}
    </>
  );
}
