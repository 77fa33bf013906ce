/**
 * Rate limits count in windows of a minute on the clock: a burst that straddles the turn of a
 * minute would see its budget twice. Waits for the next minute when this one is about to end.
 */
export async function awayFromWindowEdge(burstMs = 10_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < burstMs) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

/**
 * Waits for the next minute on the clock, so a burst has the whole budget of a window to itself
 * whatever the test files before it posted in this one.
 */
export async function freshRateWindow(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  await new Promise((resolve) => setTimeout(resolve, left + 200));
}
