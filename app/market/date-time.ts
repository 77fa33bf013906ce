import type { Market } from "./markets";

/** A moment as the buyer reads it: long date, time and zone, in the market's language and zone. */
export function formatDateTime(moment: Date, market: Pick<Market, "languageTag" | "timeZone">): string {
  return new Intl.DateTimeFormat(market.languageTag, { dateStyle: "long", timeStyle: "long", timeZone: market.timeZone }).format(moment);
}

export function formatDate(moment: Date, market: Pick<Market, "languageTag" | "timeZone">): string {
  return new Intl.DateTimeFormat(market.languageTag, { dateStyle: "long", timeZone: market.timeZone }).format(moment);
}
