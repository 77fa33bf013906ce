import { markets } from "../market/markets";
import { routeEntries } from "./route-table";

/** Every prerendered locale-carrying route for every market's route value: `/offer/fr`, `/offer/ch-fr`, ... */
export function prerenderPaths(): string[] {
  return routeEntries
    .filter((entry) => entry.prerendered)
    .flatMap((entry) => markets.map((market) => entry.pattern.replace(":locale", market.routeValue)));
}
