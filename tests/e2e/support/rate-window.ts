/**
 * Rate limits count in windows of a minute on the clock: a burst that straddles the turn of a
 * minute would see its budget twice. Waits for the next minute when this one is about to end.
 */
export async function awayFromWindowEdge(burstMs = 10_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < burstMs) await new Promise((resolve) => setTimeout(resolve, left + 200));
}
