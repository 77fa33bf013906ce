import { describe, expect, it } from "vitest";
import { currentPrice, referencePrice, savingsPercent, type PricePoint } from "./savings";

const day = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe("savingsPercent", () => {
  it.each<[string, PricePoint[], string, number | null, number | undefined]>([
    ["a plain reduction", [{ from: "2026-06-01", grossMinor: 4990 }, { from: "2026-11-01", grossMinor: 3990 }], "2026-11-21", 20, 4990],
    ["no reduction at all", [{ from: "2026-06-01", grossMinor: 3990 }], "2026-11-21", null, undefined],
    [
      "a price raised briefly before the reduction does not count",
      [
        { from: "2026-06-01", grossMinor: 3990 },
        { from: "2026-10-20", grossMinor: 5990 },
        { from: "2026-11-01", grossMinor: 3990 },
      ],
      "2026-11-21",
      null,
      3990,
    ],
    [
      "the lowest of several prices in the 30 days",
      [
        { from: "2026-06-01", grossMinor: 5990 },
        { from: "2026-10-10", grossMinor: 4990 },
        { from: "2026-10-25", grossMinor: 5490 },
        { from: "2026-11-01", grossMinor: 3990 },
      ],
      "2026-11-21",
      20,
      4990,
    ],
    [
      "a price older than 30 days is not the reference when another applied since",
      [
        { from: "2026-01-01", grossMinor: 9990 },
        { from: "2026-09-01", grossMinor: 4990 },
        { from: "2026-11-01", grossMinor: 3990 },
      ],
      "2026-11-21",
      20,
      4990,
    ],
    ["a reduction that has not started yet", [{ from: "2026-06-01", grossMinor: 4990 }, { from: "2026-12-01", grossMinor: 3990 }], "2026-11-21", null, undefined],
    ["a price increase", [{ from: "2026-06-01", grossMinor: 3990 }, { from: "2026-11-01", grossMinor: 4990 }], "2026-11-21", null, 3990],
  ])("%s", (_name, history, today, percent, reference) => {
    expect(savingsPercent(history, day(today))).toBe(percent);
    expect(referencePrice(history, day(today))).toBe(reference);
  });

  it("knows no price before the first entry", () => {
    expect(currentPrice([{ from: "2026-06-01", grossMinor: 100 }], day("2026-05-31"))).toBeUndefined();
  });
});
