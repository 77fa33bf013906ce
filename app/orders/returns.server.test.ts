import { describe, expect, it } from "vitest";
import returnsFile from "../../content/commerce/returns.json";
import { marketFor, markets } from "../market/markets";
import { parseContent } from "../platform/content-file";
import { returnAddressFor, returnsFileSchema } from "./returns.server";

describe("the return address", () => {
  it("is given for every market, in the market's language", () => {
    for (const market of markets) expect(returnAddressFor(market).length, market.country).toBeGreaterThanOrEqual(3);
    expect(returnAddressFor(marketFor("DE")).at(-1)).toBe("Niederlande");
    expect(returnAddressFor(marketFor("SE")).at(-1)).toBe("Nederländerna");
  });

  it("fails the content check, naming the market, when a market has none", () => {
    const withoutDenmark = { ...returnsFile, markets: Object.fromEntries(Object.entries(returnsFile.markets).filter(([code]) => code !== "DK")) };
    expect(() => parseContent("content/commerce/returns.json", returnsFileSchema, withoutDenmark)).toThrow(/content\/commerce\/returns\.json: markets\.DK: /);
  });

  it("fails the content check when a market's address has an empty line", () => {
    const emptyLine = { ...returnsFile, markets: { ...returnsFile.markets, FI: { addressLines: ["Vitanor Nutrition B.V.", " ", "1016 EA Amsterdam"] } } };
    expect(() => parseContent("content/commerce/returns.json", returnsFileSchema, emptyLine)).toThrow(/markets\.FI\.addressLines\.1: must not be empty/);
  });
});
