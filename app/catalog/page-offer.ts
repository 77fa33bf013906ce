import { useMatches } from "react-router";
import type { OfferView } from "./offer-view";

/** The offer of the page being shown, when its loader returned one (for the layout's banner). */
export function usePageOffer(): OfferView | undefined {
  const leaf = useMatches().at(-1);
  const data = leaf?.loaderData as { offer?: OfferView } | undefined;
  return data?.offer;
}
