import { describe, expect, it } from "vitest";
import reference from "./statistics-reference.json";
import {
  capPerGroup,
  holmRejections,
  proportionSample,
  quantile,
  revenueSample,
  sampleRatioCheck,
  sequentialDifference,
  sequentialLift,
  sequentialPValue,
  sequentialRatioDifference,
  sequentialRho,
  verdictGate,
  type RatioSums,
} from "./statistics.server";

// The reference numbers were computed independently with Python's math and statistics modules;
// the fixture's `derivation` says how.
const close = (actual: number | undefined, expected: number, digits = 9) => {
  expect(actual).toBeDefined();
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(Math.max(Math.abs(expected), 1e-12) * 10 ** -digits * 10);
};

describe("the sample-ratio check", () => {
  it.each(reference.srm)("visitors $visitors for weights $weights", ({ visitors, weights, chiSquare, pValue, alert }) => {
    const check = sampleRatioCheck(visitors, weights);
    close(check.chiSquare, chiSquare);
    close(check.pValue, pValue, 6);
    expect(check.alert).toBe(alert);
  });

  it("has nothing to check without visitors", () => {
    expect(sampleRatioCheck([0, 0], [50, 50])).toMatchObject({ pValue: 1, alert: false });
  });
});

describe("the sequential interval of a difference", () => {
  it("derives ρ from α = 0.05 and N = 5000 as GrowthBook does", () => {
    close(sequentialRho(), reference.rho);
  });

  it.each(reference.proportions)("conversion $control.successes/$control.n against $arm.successes/$arm.n", ({ control, arm, difference, lower, upper }) => {
    const interval = sequentialDifference(proportionSample(control.successes, control.n), proportionSample(arm.successes, arm.n));
    close(interval?.difference, difference);
    close(interval?.lower, lower);
    close(interval?.upper, upper);
  });

  it.each(reference.revenue)("revenue per visitor", ({ control, arm, controlMean, controlVariance, armMean, armVariance, difference, lower, upper }) => {
    const a = revenueSample(control.amounts, control.n);
    const b = revenueSample(arm.amounts, arm.n);
    close(a.mean, controlMean);
    close(a.variance, controlVariance);
    close(b.mean, armMean);
    close(b.variance, armVariance);
    const interval = sequentialDifference(a, b);
    close(interval?.difference, difference);
    close(interval?.lower, lower);
    close(interval?.upper, upper);
  });

  it("is wider than the fixed-horizon interval at the same data (it pays for looking often)", () => {
    const a = proportionSample(300, 10_000);
    const b = proportionSample(360, 10_000);
    const interval = sequentialDifference(a, b) ?? { lower: 0, upper: 0 };
    const fixedHalfWidth = 1.959964 * Math.sqrt(a.variance / a.n + b.variance / b.n);
    expect((interval.upper - interval.lower) / 2).toBeGreaterThan(fixedHalfWidth);
  });

  it("gives none while an arm has fewer than two visitors or nothing varies", () => {
    expect(sequentialDifference(proportionSample(0, 1), proportionSample(1, 5))).toBeNull();
    expect(sequentialDifference(proportionSample(0, 50), proportionSample(0, 50))).toBeNull();
  });

  it("gives none when one arm alone has no variance (no orders there), rather than an interval from the other arm's", () => {
    expect(sequentialDifference(proportionSample(30, 1000), proportionSample(0, 1000))).toBeNull();
    expect(sequentialLift(proportionSample(30, 1000), proportionSample(0, 1000))).toBeNull();
    expect(sequentialDifference(revenueSample([], 500), revenueSample([4990, 8970], 500))).toBeNull();
  });
});

describe("the relative lift by the delta method", () => {
  it.each(reference.lift)("$kind", (expected) => {
    const sampleOf = (side: { successes?: number; amounts?: number[]; n: number }) =>
      side.amounts ? revenueSample(side.amounts, side.n) : proportionSample(side.successes ?? 0, side.n);
    const control = sampleOf(expected.control);
    const arm = sampleOf(expected.arm);
    const interval = sequentialLift(control, arm);
    close(interval?.difference, expected.difference);
    close(interval?.lower, expected.lower);
    close(interval?.upper, expected.upper);
  });

  it("gives none when the control is zero", () => {
    expect(sequentialLift(revenueSample([], 100), revenueSample([100, 200], 100))).toBeNull();
  });
});

/** The sums over every visitor of a ratio metric's numerator and denominator. */
function sumsOf(side: { amounts: number[]; n: number } | { taken: number; shown: number; n: number }): RatioSums {
  if ("amounts" in side) {
    const sumX = side.amounts.reduce((sum, amount) => sum + amount, 0);
    return { n: side.n, sumX, sumY: side.amounts.length, sumXX: side.amounts.reduce((sum, amount) => sum + amount * amount, 0), sumYY: side.amounts.length, sumXY: sumX };
  }
  return { n: side.n, sumX: side.taken, sumY: side.shown, sumXX: side.taken, sumYY: side.shown, sumXY: side.taken };
}

describe("ratio metrics by the delta method", () => {
  it.each(reference.ratios)("$kind", (expected) => {
    const interval = sequentialRatioDifference(sumsOf(expected.control), sumsOf(expected.arm));
    close(interval?.difference, expected.difference);
    close(interval?.lower, expected.lower);
    close(interval?.upper, expected.upper);
  });

  it("gives none for an arm without orders, or whose orders are all alike", () => {
    expect(sequentialRatioDifference(sumsOf({ amounts: [4990, 8970], n: 100 }), sumsOf({ amounts: [], n: 100 }))).toBeNull();
    expect(sequentialRatioDifference(sumsOf({ amounts: [4990, 8970], n: 100 }), sumsOf({ amounts: [4990, 4990, 4990], n: 100 }))).toBeNull();
  });
});

describe("always-valid p-values and Holm-Bonferroni", () => {
  it.each(reference.pValues)("conversion $control.successes/$control.n against $arm.successes/$arm.n", ({ control, arm, pValue }) => {
    close(sequentialPValue(proportionSample(control.successes, control.n), proportionSample(arm.successes, arm.n)) ?? undefined, pValue, 6);
  });

  it("rejects in order of p while p ≤ α ÷ (m − rank), and nothing after the first that is kept", () => {
    // α/3 = 0.01667, α/2 = 0.025, α/1 = 0.05
    expect(holmRejections([0.01, 0.02, 0.04])).toEqual([true, true, true]);
    expect(holmRejections([0.04, 0.01, 0.03])).toEqual([false, true, false]);
    expect(holmRejections([0.03, 0.04, 0.001])).toEqual([false, false, true]);
    // A single comparison is tested at α itself; a missing p-value is kept and still counts in m.
    expect(holmRejections([0.049])).toEqual([true]);
    expect(holmRejections([0.03, null])).toEqual([false, false]);
    expect(holmRejections([0.02, null])).toEqual([true, false]);
  });
});

describe("capping revenue", () => {
  const values = [...Array.from({ length: 2500 }, (_, index) => ((index + 1) * 7919) % 10007), 1_000_000, 2_000_000, 5_000_000];

  it("takes the 99.9th percentile by linear interpolation", () => {
    close(quantile(values, reference.quantile.q) ?? undefined, reference.quantile.expected);
  });

  it("caps each market at its own percentile", () => {
    const orders = [
      ...values.map((amount) => ({ market: "DE", amount })),
      { market: "SE", amount: 100 },
      { market: "SE", amount: 200 },
    ];
    const capped = capPerGroup(orders, (order) => order.market, (order) => order.amount);
    expect(Math.max(...capped.slice(0, values.length))).toBeCloseTo(reference.quantile.expected, 6);
    // Two orders: the 99.9th percentile lies just below the larger one.
    expect(capped.slice(values.length)).toEqual([100, 100 + 100 * 0.999]);
  });
});

describe("no verdict too early", () => {
  it.each([
    [6.9, [40, 40], false],
    [7, [29, 40], false],
    [7, [30, 30], true],
    [30, [30, 31, 45], true],
  ] as const)("after %s days with %j orders: ready %s", (days, orders, ready) => {
    expect(verdictGate(days, orders).ready).toBe(ready);
  });

  it("gives none while the sample-ratio check alerts, however much data there is", () => {
    expect(verdictGate(30, [500, 500], true)).toEqual({ ready: false, reason: "No verdict while the sample-ratio check alerts: the counts themselves are wrong." });
  });

  it.each([
    [0, "No verdict before 7 days; the test has run 0 days so far."],
    [1.5, "No verdict before 7 days; the test has run 1 day so far."],
    [6.9, "No verdict before 7 days; the test has run 6 days so far."],
  ] as const)("after %s days says how many days the test has run, with its unit", (days, reason) => {
    expect(verdictGate(days, [40, 40]).reason).toBe(reason);
  });
});
