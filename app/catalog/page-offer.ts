import { useEffect, useState } from "react";
import { useMatches } from "react-router";
import { offerAt, offerEndsAt, type OfferView } from "./offer-view";

/** The offer of the page being shown, when its loader returned one (for the layout's banner). */
export function usePageOffer(): OfferView | undefined {
  const leaf = useMatches().at(-1);
  const data = leaf?.loaderData as { offer?: OfferView } | undefined;
  return data?.offer;
}

/** Timers further away than this fire at once in browsers; nobody keeps a page open that long. */
const longestTimeoutMs = 2 ** 31 - 1;

/**
 * The offer as it applies now: the first render matches the server's (its pricing moment), then
 * the browser's clock decides, and the regular prices replace the reduced ones when the reduction
 * ends while the page is open.
 */
export function useOfferNow(offer: OfferView): OfferView {
  const [now, setNow] = useState(offer.pricedAt);
  const endsAt = offerEndsAt(offer);
  useEffect(() => {
    // Right after hydration, and again at the reduction's end while the page stays open.
    const timers = [setTimeout(() => setNow(Date.now()), 0)];
    const wait = endsAt === null ? 0 : endsAt - Date.now();
    if (endsAt !== null && wait > 0 && wait <= longestTimeoutMs) timers.push(setTimeout(() => setNow(Math.max(Date.now(), endsAt)), wait));
    return () => timers.forEach(clearTimeout);
  }, [endsAt]);
  return offerAt(offer, now);
}
