import { describe, expect, it } from "vitest";
import { normalizePostalCode, postalRules } from "./postal-codes";

describe("normalizePostalCode", () => {
  it.each<[string, string, string]>([
    ["FR", "75008", "75008"],
    ["FR", " 75008 ", "75008"],
    ["DE", "10115", "10115"],
    ["BE", "1000", "1000"],
    ["AT", "1010", "1010"],
    ["CH", "8001", "8001"],
    ["DK", "1050", "1050"],
    ["FI", "00100", "00100"],
    ["IT", "00184", "00184"],
    ["ES", "28013", "28013"],
    ["ES", "01001", "01001"],
    ["ES", "52001", "52001"],
    ["SE", "11455", "114 55"],
    ["SE", "114 55", "114 55"],
    ["GB", "sw1a1aa", "SW1A 1AA"],
    ["GB", "SW1A 1AA", "SW1A 1AA"],
    ["GB", "M1 1AE", "M1 1AE"],
    ["GB", "m11ae", "M1 1AE"],
    ["GB", "B33 8TH", "B33 8TH"],
    ["GB", "EC1A 1BB", "EC1A 1BB"],
    ["GB", "W1A 0AX", "W1A 0AX"],
    ["GB", "CR2 6XH", "CR2 6XH"],
    ["GB", "DN55 1PT", "DN55 1PT"],
  ])("%s %j is %j", (country, typed, written) => {
    expect(normalizePostalCode(country, typed)).toBe(written);
  });

  it.each<[string, string]>([
    ["FR", "7500"],
    ["FR", "750088"],
    ["FR", "7500A"],
    ["FR", ""],
    ["DE", "1011"],
    ["BE", "0100"],
    ["BE", "10000"],
    ["AT", "0101"],
    ["CH", "800"],
    ["DK", "0999"],
    ["FI", "0010"],
    ["IT", "184"],
    ["ES", "53000"],
    ["ES", "00100"],
    ["SE", "014 55"],
    ["SE", "1145"],
    ["GB", "QQ1 1AA"],
    ["GB", "SW1A"],
    ["GB", "SW1A 1CA"],
    ["GB", "SW1A 1AAA"],
    ["GB", ""],
    ["US", "10001"],
    ["NL", "1016 EA"],
  ])("%s %j is not a postal code", (country, typed) => {
    expect(normalizePostalCode(country, typed)).toBeNull();
  });

  it.each(Object.entries(postalRules))("%s: the example is written as the country writes it", (country, rule) => {
    expect(normalizePostalCode(country, rule.example)).toBe(rule.example);
  });
});
