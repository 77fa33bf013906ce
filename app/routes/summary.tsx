import { useLoaderData } from "react-router";
import type { Route } from "./+types/summary";
import { loadPageOffer } from "../catalog/offer-loader.server";
import { ProductsSection } from "../catalog/products-section";
import { OrderNowButton } from "../chrome/order-now-button";
import { PageIntro } from "../chrome/page-intro";
import { useCarriedSearch } from "../funnel/carried-search";
import { funnelTextsFor } from "../funnel/content.server";
import { SummaryResult } from "../funnel/quiz/summary-result";
import { useRouteName } from "../funnel/route-name";
import { storefrontStateContext } from "../market/request-context";

export function loader(args: Route.LoaderArgs) {
  const texts = funnelTextsFor(args.context.get(storefrontStateContext).lang);
  return { texts: { results: texts.results, tips: texts.tips }, ...loadPageOffer(args) };
}

/** summary, summarypop and v1ip-summary; on summarypop `step=bundle` shows the bundles in place. */
export default function SummaryPage() {
  const { texts, offer } = useLoaderData<typeof loader>();
  const routeName = useRouteName();
  const step = new URLSearchParams(useCarriedSearch()).get("step");
  const showBundles = routeName.startsWith("summarypop") && step === "bundle";
  return (
    <>
      <PageIntro messagePrefix="pages.summary">
        <SummaryResult texts={texts} />
        <OrderNowButton />
      </PageIntro>
      {showBundles ? <ProductsSection offer={offer} /> : null}
    </>
  );
}
