/**
 * The countdown's clock: it counts to a deadline the store keeps for everyone — the end of the
 * running reduction or today's dispatch cut-off — never to a window per visitor, so neither reload,
 * navigation nor cleared storage moves it (docs/decisions/0006).
 */

export const tickMs = 1000;
/** After a route change the timers restart this much later, toward the same deadline (decision 6). */
export const restartDelayMs = 100;
/** A reduction's end further away than this is shown as a date on the cards, not as a timer. */
export const offerCountdownWindowMs = 24 * 60 * 60 * 1000;

export type Deadline = { kind: "offer-ends" | "ships-today"; at: number };

/** The nearest real deadline ahead: the reduction's end within a day, or today's dispatch cut-off. */
export function chooseDeadline(now: number, offerEndsAt: number | null, cutoff: number | null): Deadline | null {
  const candidates: Deadline[] = [];
  if (offerEndsAt !== null && offerEndsAt > now && offerEndsAt - now <= offerCountdownWindowMs) candidates.push({ kind: "offer-ends", at: offerEndsAt });
  if (cutoff !== null && cutoff > now) candidates.push({ kind: "ships-today", at: cutoff });
  return candidates.sort((a, b) => a.at - b.at)[0] ?? null;
}

export function remainingMs(deadline: number, now: number): number {
  return Math.max(0, deadline - now);
}

/** `mm:ss`, minutes past 59 included (two hours read 120:00), rounding up so that 00:00 shows only when the time is really over. */
export function formatMinutesSeconds(ms: number): string {
  const totalSeconds = Math.ceil(ms / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${String(minutes).padStart(2, "0")}:${String(seconds).padStart(2, "0")}`;
}
