/**
 * GrowthBook's assignment hash, so an arm here is the arm GrowthBook's engine would choose for
 * the same id and experiment key (its SDKs' `hash`, `getBucketRanges` and `chooseVariation`).
 * Version 2 hashes twice, so that ids which differ in one character do not land in neighbouring
 * buckets, and keeps four digits: 10,000 buckets.
 */

/** FNV-1a, 32 bits, over UTF-16 code units as GrowthBook's JavaScript SDK does. */
export function fnv1a32(value: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < value.length; index++) {
    hash ^= value.charCodeAt(index);
    // Multiplying by the FNV prime 16777619 as shifts keeps every step within 32 bits.
    hash += (hash << 1) + (hash << 4) + (hash << 7) + (hash << 8) + (hash << 24);
  }
  return hash >>> 0;
}

/** A number in [0, 1) for an id and a seed; null for a hash version GrowthBook does not define. */
export function growthBookHash(seed: string, value: string, version: number): number | null {
  if (version === 2) return (fnv1a32(String(fnv1a32(seed + value))) % 10_000) / 10_000;
  if (version === 1) return (fnv1a32(value + seed) % 1_000) / 1_000;
  return null;
}

export type BucketRange = readonly [start: number, end: number];

/**
 * Consecutive ranges of [0, 1), one per arm, as wide as its weight (all arms cover the whole
 * range: no visitor is left out of a test). Weights that do not add up to 1, or whose number
 * differs from the arms', fall back to equal weights as GrowthBook's do.
 */
export function bucketRanges(arms: number, coverage: number, weights?: readonly number[]): BucketRange[] {
  const covered = Math.min(1, Math.max(0, coverage));
  const equal = Array.from({ length: arms }, () => 1 / arms);
  let chosen = weights ?? equal;
  const total = chosen.reduce((sum, weight) => sum + weight, 0);
  if (chosen.length !== arms || total < 0.99 || total > 1.01) chosen = equal;
  let start = 0;
  return chosen.map((weight) => {
    const range: BucketRange = [start, start + covered * weight];
    start += weight;
    return range;
  });
}

/** The arm whose range holds n, or -1 when none does. */
export function chooseArm(n: number, ranges: readonly BucketRange[]): number {
  return ranges.findIndex(([start, end]) => n >= start && n < end);
}
