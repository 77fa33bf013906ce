import type { RouterContextProvider } from "react-router";
import { routeEntryForPath } from "../funnel/route-for-path";
import { storefrontStateContext } from "../market/request-context";
import { offerForRoute } from "./catalog.server";

/** The offer of the route a request is for, priced in the visitor's market, as of now. */
export function loadPageOffer({ request, context }: { request: Request; context: Readonly<RouterContextProvider> }) {
  const { market } = context.get(storefrontStateContext);
  const routeName = routeEntryForPath(new URL(request.url).pathname)?.name ?? "offer";
  return { offer: offerForRoute(routeName, market.currency, new Date()) };
}
