import { routePath } from "../../funnel/paths";
import { findRouteEntry } from "../../funnel/route-table";

/**
 * Where PayPal's return page (`/paypal-confirm/:from`) sends the buyer on: the funnel step named
 * by `from` (`upsell`, `upsellMind-2`, ...); anything else leads to thank-you.
 */
export function confirmTarget(from: string | undefined, routeValue: string): string {
  const entry = from ? findRouteEntry(from) : undefined;
  if (!entry || entry.param === "from" || entry.page === "paypal-confirm") return routePath("thankyou");
  return entry.param === "locale" ? entry.pattern.replace(":locale", routeValue) : entry.pattern;
}
