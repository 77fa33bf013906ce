import { usePageOffer } from "../catalog/page-offer";
import { TopBanner } from "./top-banner";

/**
 * The top banner of the page's offer, for the offer layouts' frame. Only those layouts import it,
 * so its countdown's code stays out of every other page.
 */
export function OfferBanner() {
  const offer = usePageOffer();
  return offer ? <TopBanner offer={offer} /> : null;
}
