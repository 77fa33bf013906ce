import { describe, expect, it } from "vitest";
import { currentPrice, reductionsWithoutEnd, referencePrice, runningReduction, savingsPercent, type PricePoint } from "./savings";

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

describe("a reduction with an end", () => {
  const history: PricePoint[] = [
    { from: "2026-06-01", grossMinor: 4990 },
    { from: "2026-11-01", until: "2027-01-01T00:00:00+01:00", grossMinor: 3990 },
  ];
  const endsAt = Date.parse("2026-12-31T23:00:00Z");

  it("applies until its end, with its saving and what follows it", () => {
    expect(currentPrice(history, new Date(endsAt - 1))?.grossMinor).toBe(3990);
    expect(savingsPercent(history, new Date(endsAt - 1))).toBe(20);
    expect(runningReduction(history, new Date(endsAt - 1))).toEqual({ endsAt, afterMinor: 4990 });
  });

  it("gives way to the regular price at its end: no saving, no reference, no reduction", () => {
    const after = new Date(endsAt);
    expect(currentPrice(history, after)?.grossMinor).toBe(4990);
    expect(savingsPercent(history, after)).toBeNull();
    expect(referencePrice(history, after)).toBeUndefined();
    expect(runningReduction(history, after)).toBeNull();
  });

  it("counts an ended reduction among the 30 days before the next one", () => {
    const later: PricePoint[] = [...history, { from: "2027-01-20", until: "2027-02-01T00:00:00+01:00", grossMinor: 3490 }];
    // Before 20 January: 3990 until 31 December, then 4990; the lowest is 3990.
    expect(referencePrice(later, new Date("2027-01-25T12:00:00Z"))).toBe(3990);
    expect(savingsPercent(later, new Date("2027-01-25T12:00:00Z"))).toBe(13);
  });

  it("is required: a reduction without an end is named, a regular price is not", () => {
    expect(reductionsWithoutEnd(history)).toEqual([]);
    expect(reductionsWithoutEnd([{ from: "2026-06-01", grossMinor: 4990 }, { from: "2026-11-01", grossMinor: 3990 }])).toEqual(["2026-11-01"]);
    expect(reductionsWithoutEnd([{ from: "2026-06-01", grossMinor: 3990 }, { from: "2026-11-01", grossMinor: 4990 }])).toEqual([]);
  });
});
