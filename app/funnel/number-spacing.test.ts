import { describe, expect, it } from "vitest";
import { keepNumbersWithUnits } from "./number-spacing";

describe("keepNumbersWithUnits", () => {
  it.each([
    ["3 g Ballaststoffe", "3\u00A0g Ballaststoffe"],
    ["Täglich 2 Kapseln mit 1–2 Gläsern Wasser", "Täglich 2\u00A0Kapseln mit 1–2\u00A0Gläsern Wasser"],
    ["1 000 mg de vitamine C", "1\u00A0000\u00A0mg de vitamine C"],
    ["2,5 µg Vitamin B12", "2,5\u00A0µg Vitamin B12"],
    ["jusqu'à 20 % de", "jusqu'à 20\u00A0% de"],
    ["in 20 minutes", "in 20\u00A0minutes"],
    ["Zink 10 mg, Selen 55 µg", "Zink 10\u00A0mg, Selen 55\u00A0µg"],
    ["1 2 3", "1 2 3"],
    ["Ab 18 Jahren.", "Ab 18\u00A0Jahren."],
    ["Vitamin B12 (2,5 µg)", "Vitamin B12 (2,5\u00A0µg)"],
    ["No digits here", "No digits here"],
    ["12 345", "12\u00A0345"],
    ["12 3456", "12 3456"],
    ["", ""],
  ])("%j becomes %j", (input, expected) => {
    expect(keepNumbersWithUnits(input)).toBe(expected);
  });
});
