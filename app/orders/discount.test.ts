import { describe, expect, it } from "vitest";
import { priceLine, type LineInput } from "./pricing";
import { spreadDiscount } from "./discount";

const line = (grossMinor: number, vatRateBp = 550, bundleId = "shape-3"): ReturnType<typeof priceLine> =>
  priceLine({ bundleId, productId: bundleId.split("-")[0] ?? bundleId, productName: "Shape", kind: "supplement", units: 1, grossMinor, vatRateBp } satisfies LineInput);

describe("spreadDiscount", () => {
  it.each<[string, number[], number, number[]]>([
    ["one line takes the whole discount", [8970], 897, [897]],
    ["two lines in proportion, the remainder to the larger fraction", [8970, 1990], 1096, [897, 199]],
    ["a cent that cannot be split goes to the earlier line on a tie", [1000, 1000], 1, [1, 0]],
    ["three equal lines share 100 as 34, 33, 33", [500, 500, 500], 100, [34, 33, 33]],
    ["no discount leaves every line", [8970, 1990], 0, [0, 0]],
    ["the whole amount off", [8970, 1990], 10960, [8970, 1990]],
    ["a line worth nothing gives nothing", [0, 4990], 499, [0, 499]],
  ])("%s", (_name, grosses, discount, shares) => {
    const spread = spreadDiscount(grosses.map((gross) => line(gross)), discount);
    expect(spread.map((entry) => entry.discountMinor)).toEqual(shares);
    expect(spread.reduce((sum, entry) => sum + entry.discountMinor, 0)).toBe(discount);
    spread.forEach((entry, index) => {
      expect(entry.undiscountedGrossMinor).toBe(grosses[index]);
      expect(entry.grossMinor).toBe((grosses[index] ?? 0) - (shares[index] ?? 0));
    });
  });

  it("takes each line's VAT from its discounted amount, at the line's own rate", () => {
    const [supplement, audio] = spreadDiscount([line(8970, 550), line(1990, 2000, "audio-1")], 1096);
    expect(supplement?.grossMinor).toBe(8073);
    expect(supplement?.vatMinor).toBe(8073 - Math.round((8073 * 10_000) / 10_550));
    expect(audio).toMatchObject({ grossMinor: 1791, vatMinor: 1791 - Math.round((1791 * 10_000) / 12_000) });
  });

  it.each<[string, number]>([
    ["a negative discount", -1],
    ["a fractional discount", 1.5],
    ["a discount above the lines", 10_961],
  ])("refuses %s", (_name, discount) => {
    expect(() => spreadDiscount([line(8970), line(1990)], discount)).toThrow(RangeError);
  });
});
