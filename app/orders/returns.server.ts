import { z } from "zod";
import returnsFile from "../../content/commerce/returns.json";
import { parseContent } from "../platform/content-file";
import { markets, type CountryCode, type Market } from "../market/markets";

/**
 * Where a buyer who withdrew sends the goods back, per market, written in the market's language.
 * The withdrawal notice promises the address "in our confirmation", so every market must have one:
 * the file is checked when the server build is imported (the build's prerendering does), and a
 * market without an address fails the build.
 */

const marketCodes = markets.map((market) => market.country) as [CountryCode, ...CountryCode[]];
const addressLine = z.string().trim().min(1, "must not be empty");

export const returnsFileSchema = z
  .object({
    source: z.string().min(10, "must say where the addresses come from"),
    markets: z
      .object(Object.fromEntries(marketCodes.map((code) => [code, z.object({ addressLines: z.array(addressLine).min(3, "must give name, street and town at least") }).strict()])))
      .strict()
      .refine((byMarket) => marketCodes.every((code) => code in byMarket), { message: "every market needs a return address" }),
  })
  .strict();

const returns = parseContent("content/commerce/returns.json", returnsFileSchema, returnsFile) as unknown as {
  markets: Record<CountryCode, { addressLines: string[] }>;
};

/** The lines of the address a market's buyers send goods back to. */
export function returnAddressFor(market: Market): readonly string[] {
  return returns.markets[market.country].addressLines;
}
