import { describe, expect, it } from "vitest";
import cases from "./growthbook-cases.json";
import { bucketRanges, chooseArm, fnv1a32, growthBookHash } from "./hash";

// The vectors are GrowthBook's own (its SDKs' shared cases.json); the fixture names the commit.
type HashCase = [seed: string, value: string, version: number, expected: number | null];
type RangeCase = [name: string, args: [number, number, number[] | null], expected: [number, number][]];
type ChooseCase = [name: string, n: number, ranges: [number, number][], expected: number];

describe("GrowthBook's hash", () => {
  it.each(cases.hash as HashCase[])("hash(seed %j, value %j, v%i) = %s", (seed, value, version, expected) => {
    expect(growthBookHash(seed, value, version)).toBe(expected);
  });

  it.each([
    ["", 0x811c9dc5],
    ["a", 0xe40c292c],
    ["foobar", 0xbf9cf968],
  ] as const)("FNV-1a 32 of %j is the reference value", (value, expected) => {
    expect(fnv1a32(value)).toBe(expected);
  });
});

describe("bucket ranges and choosing an arm", () => {
  it.each(cases.getBucketRange as RangeCase[])("%s", (_name, [arms, coverage, weights], expected) => {
    const ranges = bucketRanges(arms, coverage, weights ?? undefined);
    expect(ranges).toHaveLength(expected.length);
    ranges.forEach(([start, end], index) => {
      const [expectedStart, expectedEnd] = expected[index] ?? [Number.NaN, Number.NaN];
      expect(start).toBeCloseTo(expectedStart, 6);
      expect(end).toBeCloseTo(expectedEnd, 6);
    });
  });

  it.each(cases.chooseVariation as ChooseCase[])("%s", (_name, n, ranges, expected) => {
    expect(chooseArm(n, ranges)).toBe(expected);
  });
});

describe("100,000 ids land within half a percentage point of each weight", () => {
  it.each([
    [[50, 50]],
    [[10, 90]],
    [[20, 30, 50]],
    [[25, 25, 25, 25]],
    [[1, 33, 33, 33]],
  ])("weights %j", (weights) => {
    const ranges = bucketRanges(weights.length, 1, weights.map((weight) => weight / 100));
    const counts = weights.map(() => 0);
    const ids = 100_000;
    for (let index = 0; index < ids; index++) {
      const n = growthBookHash("xp-simulation", `visitor-${index}-${(index * 2654435761) % 4294967296}`, 2) ?? -1;
      const arm = chooseArm(n, ranges);
      counts[arm] = (counts[arm] ?? 0) + 1;
    }
    counts.forEach((count, arm) => {
      expect(Math.abs((count / ids) * 100 - (weights[arm] ?? Number.NaN))).toBeLessThanOrEqual(0.5);
    });
  });
});
