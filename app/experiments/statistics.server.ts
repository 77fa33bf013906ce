import jstat from "jstat";

/**
 * The statistics of a split test's report (docs/decisions/0028-split-tests.md): the sample-ratio
 * check, GrowthBook's asymptotic confidence sequence for the difference of two means, revenue
 * capping at a percentile, and when a verdict may be given. Distributions come from jstat.
 */

const { jStat } = jstat;

/** The sample-ratio check alerts below this p-value, as GrowthBook, Statsig and Eppo do. */
export const srmAlertBelow = 0.001;
/** No verdict before this many days and this many orders in every arm. */
const minDaysForVerdict = 7;
const minOrdersPerArm = 30;
/** Two-sided 95% sequences; GrowthBook's default tuning (where the sequence is tightest). */
const alpha = 0.05;
const sequentialTuning = 5000;
/** Revenue per order is capped at this quantile, per market (GrowthBook's percentile capping). */
const capQuantile = 0.999;

export interface SampleRatioCheck {
  chiSquare: number;
  degreesOfFreedom: number;
  pValue: number;
  alert: boolean;
}

/**
 * Pearson's chi-square goodness of fit of the visitors per arm against the weights. With no
 * visitors there is nothing to check: p = 1, no alert.
 */
export function sampleRatioCheck(visitors: readonly number[], weights: readonly number[]): SampleRatioCheck {
  const total = visitors.reduce((sum, count) => sum + count, 0);
  const weightTotal = weights.reduce((sum, weight) => sum + weight, 0);
  const degreesOfFreedom = visitors.length - 1;
  if (total === 0 || weightTotal <= 0 || degreesOfFreedom < 1) return { chiSquare: 0, degreesOfFreedom, pValue: 1, alert: false };
  const chiSquare = visitors.reduce((sum, observed, index) => {
    const expected = (total * (weights[index] ?? 0)) / weightTotal;
    return expected > 0 ? sum + (observed - expected) ** 2 / expected : sum;
  }, 0);
  const pValue = Math.min(1, Math.max(0, 1 - jStat.chisquare.cdf(chiSquare, degreesOfFreedom)));
  return { chiSquare, degreesOfFreedom, pValue, alert: pValue < srmAlertBelow };
}

/** A sample's summary: size, mean and (unbiased) variance per unit. */
export interface Sample {
  n: number;
  mean: number;
  variance: number;
}

/** Visitors who converted or not: a proportion's mean and its variance p(1 − p), as GrowthBook takes it. */
export function proportionSample(successes: number, n: number): Sample {
  const mean = n > 0 ? successes / n : 0;
  return { n, mean, variance: mean * (1 - mean) };
}

/**
 * Revenue per visitor: the given amounts (one per order) spread over n visitors, the others
 * bringing nothing.
 */
export function revenueSample(amounts: readonly number[], n: number): Sample {
  if (n <= 0) return { n: 0, mean: 0, variance: 0 };
  const sum = amounts.reduce((total, amount) => total + amount, 0);
  const squares = amounts.reduce((total, amount) => total + amount * amount, 0);
  const mean = sum / n;
  const variance = n > 1 ? Math.max(0, (squares - n * mean * mean) / (n - 1)) : 0;
  return { n, mean, variance };
}

/** ρ of the normal mixture for a tuning N (Waudby-Smith et al., two-sided; GrowthBook's `sequential_rho`). */
export function sequentialRho(level = alpha, tuning = sequentialTuning): number {
  const logAlpha = Math.log(level);
  return Math.sqrt((-2 * logAlpha + Math.log(-2 * logAlpha + 1)) / tuning);
}

/** Half-width of the asymptotic confidence sequence for a per-unit variance s2 after n units. */
function sequentialHalfWidth(s2: number, n: number, level = alpha, tuning = sequentialTuning): number {
  const rho = sequentialRho(level, tuning);
  const nRho = n * rho * rho + 1;
  return Math.sqrt(s2) * Math.sqrt((2 * nRho * Math.log(Math.sqrt(nRho) / level)) / (n * rho) ** 2);
}

export interface Interval {
  /** Arm's mean minus the control's. */
  difference: number;
  lower: number;
  upper: number;
}

/** An estimate and its squared standard error, from which every interval below is made. */
interface Estimate {
  value: number;
  /** The estimate's variance (per unit variance ÷ units). */
  variance: number;
  /** Units on both sides, the n of the sequence. */
  n: number;
}

function sequenceOf(estimate: Estimate | null, level: number, tuning: number): Interval | null {
  if (!estimate || !(estimate.variance > 0) || !Number.isFinite(estimate.variance)) return null;
  const halfWidth = sequentialHalfWidth(estimate.variance * estimate.n, estimate.n, level, tuning);
  return { difference: estimate.value, lower: estimate.value - halfWidth, upper: estimate.value + halfWidth };
}

/**
 * The always-valid p-value of an estimate: the smallest α at which its confidence sequence
 * leaves out 0 (found by bisection; the half-width shrinks as α grows). Null without an interval.
 */
function sequentialPValueOf(estimate: Estimate | null, tuning: number): number | null {
  if (!estimate || !(estimate.variance > 0) || !Number.isFinite(estimate.variance)) return null;
  const distance = Math.abs(estimate.value);
  const halfWidthAt = (level: number) => sequentialHalfWidth(estimate.variance * estimate.n, estimate.n, level, tuning);
  let low = Math.log(1e-12);
  let high = Math.log(1 - 1e-9);
  if (distance >= halfWidthAt(Math.exp(low))) return 1e-12;
  if (distance < halfWidthAt(Math.exp(high))) return 1;
  for (let step = 0; step < 80; step++) {
    const middle = (low + high) / 2;
    if (distance >= halfWidthAt(Math.exp(middle))) high = middle;
    else low = middle;
  }
  return Math.exp(high);
}

/** Both sides have at least two units and some variance: otherwise there is nothing to compare. */
const comparable = (control: Sample, arm: Sample) => control.n >= 2 && arm.n >= 2 && control.variance > 0 && arm.variance > 0;

function differenceEstimate(control: Sample, arm: Sample): Estimate | null {
  if (!comparable(control, arm)) return null;
  return { value: arm.mean - control.mean, variance: control.variance / control.n + arm.variance / arm.n, n: control.n + arm.n };
}

/**
 * The relative lift arm ÷ control − 1 and its variance by the delta method, GrowthBook's default:
 * var = var_b / (μ_a² n_b) + var_a μ_b² / (μ_a⁴ n_a).
 */
function liftEstimate(control: Sample, arm: Sample): Estimate | null {
  if (!comparable(control, arm) || !(control.mean > 0)) return null;
  const variance = arm.variance / (control.mean ** 2 * arm.n) + (control.variance * arm.mean ** 2) / (control.mean ** 4 * control.n);
  return { value: arm.mean / control.mean - 1, variance, n: control.n + arm.n };
}

/**
 * The arm's mean minus the control's, with an interval that holds at every look at once (an
 * always-valid confidence sequence): looking every day does not make it lie more often. Null
 * while one side has fewer than two units or no variance.
 */
export function sequentialDifference(control: Sample, arm: Sample, level = alpha, tuning = sequentialTuning): Interval | null {
  return sequenceOf(differenceEstimate(control, arm), level, tuning);
}

/** The relative lift (0.1 = 10 % more than the control) with its confidence sequence, by the delta method. */
export function sequentialLift(control: Sample, arm: Sample, level = alpha, tuning = sequentialTuning): Interval | null {
  return sequenceOf(liftEstimate(control, arm), level, tuning);
}

/** The always-valid p-value of the difference of means (what Holm-Bonferroni orders the arms by). */
export function sequentialPValue(control: Sample, arm: Sample, tuning = sequentialTuning): number | null {
  return sequentialPValueOf(differenceEstimate(control, arm), tuning);
}

/**
 * A ratio metric over visitors (average order value: revenue ÷ orders; upsell take rate: orders
 * that took one ÷ orders shown one), from the sums over the n visitors of numerator x and
 * denominator y.
 */
export interface RatioSums {
  n: number;
  sumX: number;
  sumY: number;
  sumXX: number;
  sumYY: number;
  sumXY: number;
}

/**
 * The ratio ΣX ÷ ΣY and its variance by the delta method (GrowthBook's ratio metrics):
 * (var_x − 2 r cov + r² var_y) ÷ (n μ_y²), with unbiased per-visitor variances and covariance.
 */
function ratioEstimate(sums: RatioSums): { ratio: number; variance: number } | null {
  const { n } = sums;
  if (n < 2 || !(sums.sumY > 0)) return null;
  const meanX = sums.sumX / n;
  const meanY = sums.sumY / n;
  const varX = (sums.sumXX - n * meanX * meanX) / (n - 1);
  const varY = (sums.sumYY - n * meanY * meanY) / (n - 1);
  const cov = (sums.sumXY - n * meanX * meanY) / (n - 1);
  const ratio = meanX / meanY;
  const variance = (varX - 2 * ratio * cov + ratio * ratio * varY) / (n * meanY * meanY);
  return { ratio, variance };
}

/** The arm's ratio minus the control's with its confidence sequence; null where either ratio has no variance. */
export function sequentialRatioDifference(control: RatioSums, arm: RatioSums, level = alpha, tuning = sequentialTuning): Interval | null {
  const a = ratioEstimate(control);
  const b = ratioEstimate(arm);
  if (!a || !b || !(a.variance > 1e-15 * Math.max(1, a.ratio * a.ratio)) || !(b.variance > 1e-15 * Math.max(1, b.ratio * b.ratio))) return null;
  return sequenceOf({ value: b.ratio - a.ratio, variance: a.variance + b.variance, n: control.n + arm.n }, level, tuning);
}

/**
 * Holm-Bonferroni: which of m hypotheses are rejected at family-wise level α. Sorted by p, the
 * i-th smallest (from 0) is rejected while p ≤ α ÷ (m − i); the first that is not stops the rest.
 * A missing p-value counts in m and is never rejected.
 */
export function holmRejections(pValues: readonly (number | null)[], level = alpha): boolean[] {
  const m = pValues.length;
  const order = pValues.map((p, index) => ({ p: p ?? Number.POSITIVE_INFINITY, index })).sort((a, b) => a.p - b.p);
  const rejected = pValues.map(() => false);
  for (const [rank, { p, index }] of order.entries()) {
    if (!(p <= level / (m - rank))) break;
    rejected[index] = true;
  }
  return rejected;
}

/** The q-quantile by linear interpolation between order statistics (Hyndman & Fan's type 7). */
export function quantile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const low = sorted[below] ?? 0;
  const high = sorted[Math.min(sorted.length - 1, below + 1)] ?? low;
  return low + (high - low) * (position - below);
}

/** Each value capped at the group's quantile (one group per market), in the order given. */
export function capPerGroup<T>(items: readonly T[], groupOf: (item: T) => string, valueOf: (item: T) => number, q = capQuantile): number[] {
  const groups = new Map<string, number[]>();
  for (const item of items) {
    const values = groups.get(groupOf(item)) ?? [];
    values.push(valueOf(item));
    groups.set(groupOf(item), values);
  }
  const caps = new Map([...groups].map(([group, values]) => [group, quantile(values, q) ?? 0]));
  return items.map((item) => Math.min(valueOf(item), caps.get(groupOf(item)) ?? Number.POSITIVE_INFINITY));
}

export interface VerdictGate {
  ready: boolean;
  /** Why there is no verdict yet, when there is none. */
  reason: string | null;
}

/** A verdict only after 7 days and 30 orders in every arm, and never while the sample-ratio check alerts. */
export function verdictGate(days: number, ordersPerArm: readonly number[], sampleRatioAlert = false): VerdictGate {
  if (sampleRatioAlert) return { ready: false, reason: "No verdict while the sample-ratio check alerts: the counts themselves are wrong." };
  const fewest = Math.min(...ordersPerArm);
  const whole = Math.floor(days);
  if (days < minDaysForVerdict) return { ready: false, reason: `No verdict before ${minDaysForVerdict} days; the test has run ${whole} ${whole === 1 ? "day" : "days"} so far.` };
  if (!(fewest >= minOrdersPerArm)) return { ready: false, reason: `No verdict before ${minOrdersPerArm} orders in every arm; the fewest is ${fewest}.` };
  return { ready: true, reason: null };
}
