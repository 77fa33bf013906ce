import { useMatches } from "react-router";
import { usePageOffer } from "../catalog/page-offer";
import type { DispatchRule } from "../market/dispatch";
import { TopBanner } from "./top-banner";

/**
 * The top banner of the page's offer, for the offer layouts' frame. Only those layouts import it,
 * so its countdown's code stays out of every other page.
 */
export function OfferBanner() {
  const offer = usePageOffer();
  const dispatch = (useMatches().at(-1)?.loaderData as { dispatch?: DispatchRule } | undefined)?.dispatch;
  return offer && dispatch ? <TopBanner offer={offer} dispatch={dispatch} /> : null;
}
