import { describe, expect, it } from "vitest";
import { allCountries, alpha2ByCountryName, countryByAlpha2 } from "./countries.server";

describe("country dataset", () => {
  it("has both variants with the same countries", () => {
    const underscore = allCountries("underscore");
    const hyphen = allCountries("hyphen");
    expect(underscore.length).toBeGreaterThan(240);
    expect(hyphen.map((country) => country.alpha2)).toEqual(underscore.map((country) => country.alpha2));
  });

  it.each([
    ["underscore", "CA", "en_CA"],
    ["hyphen", "CA", "en-CA"],
    ["underscore", "se", "sv_SE"],
    ["hyphen", "fr", "fr-FR"],
  ] as const)("%s variant writes %s's default locale as %s", (variant, alpha2, locale) => {
    expect(countryByAlpha2(alpha2, variant)?.default_locale).toBe(locale);
  });

  it("keeps the dataset's own errors, which is why currency is never read from it", () => {
    expect(countryByAlpha2("VE")?.currency).toBe("VUV");
  });
});

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
