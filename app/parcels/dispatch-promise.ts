import { promisedDispatch } from "../market/dispatch";
import { marketForCountryCode } from "../market/markets";
import { dispatchRuleFor } from "../orders/commerce-content.server";

/**
 * When a paid order must have left the warehouse: the promise the storefront's dispatch countdown
 * makes in the order's market (content/commerce/delivery.json). Paid before the cut-off on a
 * shipping day, in the market's local time, it is due out at that cut-off; otherwise at the next
 * shipping day's cut-off, weekends and closed days skipped.
 */
export function dispatchDeadline(paidAt: Date, marketCode: string): Date {
  const market = marketForCountryCode(marketCode);
  if (!market) throw new Error(`No market ${marketCode} to read the dispatch promise of`);
  return new Date(promisedDispatch(paidAt.getTime(), dispatchRuleFor(market), market.timeZone));
}

/** Past the promised dispatch time, and so to be shipped first and looked into. */
export function isOverdue(paidAt: Date, marketCode: string, now: Date): boolean {
  return now.getTime() > dispatchDeadline(paidAt, marketCode).getTime();
}
