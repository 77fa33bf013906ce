import { routePath } from "./paths";
import { findRouteEntry } from "./route-table";

/**
 * Where a provider's return page (`/<page>/:from`, `paymentReturnRows`) sends the buyer on: the
 * funnel step named by `from` (`upsell`, `upsellMind-2`, ...); anything else leads to thank-you.
 */
export function returnTarget(from: string | undefined, routeValue: string): string {
  const entry = from ? findRouteEntry(from) : undefined;
  if (!entry || entry.param === "from" || entry.page === "payment-return") return routePath("thankyou");
  return entry.param === "locale" ? entry.pattern.replace(":locale", routeValue) : entry.pattern;
}
