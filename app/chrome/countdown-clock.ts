/**
 * The countdown's clock: a real deadline per visitor and offer, kept in localStorage, so that
 * neither reload nor navigation resets or extends it (reference/eu-rules.md item 3).
 */

export const tickMs = 1000;
/** After a route change the timers restart this much later, toward the same deadline (spec §4). */
export const restartDelayMs = 100;

export function storageKey(offerId: string): string {
  return `vitanor:offer-deadline:${offerId}`;
}

/**
 * The deadline to count toward: the stored one when it is a plausible instant, else a new one.
 * A stored deadline further away than one full window (tampered) is cut back to that window.
 */
export function resolveDeadline(stored: string | null, now: number, windowMs: number): number {
  const parsed = stored === null ? Number.NaN : Number(stored);
  if (!Number.isSafeInteger(parsed) || parsed <= 0) return now + windowMs;
  return Math.min(parsed, now + windowMs);
}

export function remainingMs(deadline: number, now: number): number {
  return Math.max(0, deadline - now);
}

/** `mm:ss`, rounding up so that 00:00 shows only when the time is really over. */
export function formatMinutesSeconds(ms: number): string {
  const totalSeconds = Math.ceil(ms / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${String(minutes).padStart(2, "0")}:${String(seconds).padStart(2, "0")}`;
}

function readStored(storage: Storage | undefined, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Reads, or starts, this visitor's deadline for an offer. Storage may be unavailable (private mode). */
export function loadDeadline(storage: Storage | undefined, offerId: string, now: number, windowMs: number): number {
  const deadline = resolveDeadline(readStored(storage, storageKey(offerId)), now, windowMs);
  try {
    storage?.setItem(storageKey(offerId), String(deadline));
  } catch {
    // Without storage the deadline lasts as long as the page: still never extended.
  }
  return deadline;
}
