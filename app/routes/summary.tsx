import { useLoaderData } from "react-router";
import type { Route } from "./+types/summary";
import { loadPageOffer } from "../offer/offer-loader.server";
import { ProductsSection } from "../offer/products-section";
import { OrderNowButton } from "../chrome/order-now-button";
import { PageIntro } from "../chrome/page-intro";
import { useCarriedSearch } from "../funnel/carried-search";
import { funnelTextsFor } from "../funnel/content.server";
import { SummaryResult } from "../funnel/quiz/summary-result";
import { storefrontStateContext } from "../market/request-context";

export function loader(args: Route.LoaderArgs) {
  const texts = funnelTextsFor(args.context.get(storefrontStateContext).lang);
  // Only summarypop shows the bundles in place; the other summaries lead to an offer page.
  const isPop = new URL(args.request.url).pathname.toLowerCase().startsWith("/summarypop");
  return { texts: { results: texts.results, tips: texts.tips }, offer: isPop ? loadPageOffer(args).offer : null };
}

/** summary, summarypop and v1ip-summary; on summarypop `step=bundle` shows the bundles in place. */
export default function SummaryPage() {
  const { texts, offer } = useLoaderData<typeof loader>();
  const step = new URLSearchParams(useCarriedSearch()).get("step");
  return (
    <>
      <PageIntro messagePrefix="pages.summary">
        <SummaryResult texts={texts} />
        <OrderNowButton />
      </PageIntro>
      {offer && step === "bundle" ? <ProductsSection offer={offer} /> : null}
    </>
  );
}
