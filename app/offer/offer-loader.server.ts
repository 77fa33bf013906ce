import type { RouterContextProvider } from "react-router";
import { funnelTextsFor, productTextFor } from "../funnel/content.server";
import { routeEntryForPath } from "../funnel/route-for-path";
import { storefrontStateContext } from "../market/request-context";
import { offerForRoute } from "../catalog/catalog.server";
import { dispatchRuleFor } from "../orders/commerce-content.server";

interface LoaderArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

function routeNameOf(request: Request): string {
  return routeEntryForPath(new URL(request.url).pathname)?.name ?? "offer";
}

/**
 * The offer of the route a request is for, priced in the visitor's market, as of now, and the
 * market's dispatch cut-off, which the banner's countdown may count to.
 */
export function loadPageOffer({ request, context }: LoaderArgs) {
  const { market, lang } = context.get(storefrontStateContext);
  return { offer: offerForRoute(routeNameOf(request), market.currency, new Date(), lang), dispatch: dispatchRuleFor(market) };
}

/**
 * An offer page's data: the offer, its main product's texts and the section texts; the
 * advertorial only for /offer2 and the exit-intent dialog only for /offerexitpop.
 */
export function loadOfferPage(args: LoaderArgs) {
  const { lang } = args.context.get(storefrontStateContext);
  const { offer, dispatch } = loadPageOffer(args);
  const routeName = routeNameOf(args.request);
  const texts = funnelTextsFor(lang);
  const mainProduct = offer.lines[0]?.productId ?? "shape";
  return {
    offer,
    dispatch,
    productId: mainProduct,
    product: productTextFor(lang, mainProduct),
    sections: texts.offerSections,
    advertorial: routeName.startsWith("offer2") ? texts.advertorial : null,
    exitIntent: routeName.startsWith("offerexitpop") ? texts.exitIntent : null,
  };
}
