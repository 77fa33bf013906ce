import { routePath, withQuery } from "./paths";
import type { RouteName, TwinRouteName } from "./route-table";

/** Where the order-now button leads from a summary page, by `src` (decision 41). */
const summaryTargetBySrc: Readonly<Record<string, TwinRouteName>> = {
  v2: "offer2-2",
  v3: "get2",
  v4: "offerV4-2",
  v31: "1get-2",
  v1a: "offera-2",
  v6: "6offer-2",
  v7: "offerV7-2",
  v8: "v8offer-2",
  v9: "offerrecom-2",
  v10: "lionoffer-2",
  vsalt: "offersalt-2",
};

export interface OrderContext {
  routeName: RouteName | string;
  pathname: string;
  /** The current query string, carried to the target. */
  search: string;
  /** The resolved market's route value, for `-2` targets (also from pages without a locale). */
  routeValue: string;
}

/**
 * The route whose offer a summary's order-now button leads to, for a `src` (the same table as
 * `orderTarget`): what the quiz's result may recommend. `summarypop-2` sells in place.
 */
export function summaryOfferRoute(routeName: string, src: string): string {
  switch (routeName) {
    case "summary":
    case "summary-2":
      return summaryTargetBySrc[src] ?? "offer2";
    case "v1ip-summary-2":
      return "offerip-2";
    case "summarypop-2":
      return "summarypop-2";
    default:
      return "offer2";
  }
}

/** Every `src` the order-now table names, and "" for any other. */
export const summarySources: readonly string[] = ["", ...Object.keys(summaryTargetBySrc)];

/** The order-now button's target, query string included (decision 41). */
export function orderTarget({ routeName, pathname, search, routeValue }: OrderContext): string {
  const twin = (name: TwinRouteName) => withQuery(routePath(name, routeValue), search);
  switch (routeName) {
    case "index":
    case "index-2":
      return twin("take-2");
    case "summary":
    case "summary-2": {
      const target = summaryTargetBySrc[new URLSearchParams(search).get("src") ?? ""];
      // An unlisted src leads where any other route does (decision 41).
      return target ? twin(target) : withQuery(routePath("offer2"), search);
    }
    case "v1ip-summary-2":
      return twin("offerip-2");
    case "summarypop-2": {
      const query = new URLSearchParams(search);
      query.set("step", "bundle");
      return `${pathname}?${query.toString()}`;
    }
    default:
      return withQuery(routePath("offer2"), search);
  }
}
