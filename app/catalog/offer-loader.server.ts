import type { RouterContextProvider } from "react-router";
import { funnelTextsFor, productTextFor } from "../funnel/content.server";
import { routeEntryForPath } from "../funnel/route-for-path";
import { storefrontStateContext } from "../market/request-context";
import { offerForRoute } from "./catalog.server";

interface LoaderArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

/** The offer of the route a request is for, priced in the visitor's market, as of now. */
export function loadPageOffer({ request, context }: LoaderArgs) {
  const { market } = context.get(storefrontStateContext);
  const routeName = routeEntryForPath(new URL(request.url).pathname)?.name ?? "offer";
  return { offer: offerForRoute(routeName, market.currency, new Date()) };
}

/** An offer page's data: the offer, its main product's texts, and the page's section texts. */
export function loadOfferPage(args: LoaderArgs) {
  const { lang } = args.context.get(storefrontStateContext);
  const { offer } = loadPageOffer(args);
  const texts = funnelTextsFor(lang);
  const mainProduct = offer.lines[0]?.productId ?? "shape";
  return {
    offer,
    product: productTextFor(lang, mainProduct),
    sections: texts.offerSections,
    advertorial: texts.advertorial,
    exitIntent: texts.exitIntent,
  };
}
