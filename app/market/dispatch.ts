/**
 * The warehouse's daily cut-off in a market: orders placed before it on a working day leave the
 * same day; later ones on the next working day.
 */
export interface DispatchRule {
  /** Local time in the market's zone, `HH:MM`. */
  cutoff: string;
  /** ISO weekdays the warehouse ships on (1 Monday … 7 Sunday). */
  workingDays: number[];
  /** Dates (`YYYY-MM-DD`, the market's calendar) without shipping although on a working weekday. */
  closedDays: string[];
}

interface LocalParts {
  date: string;
  weekday: number;
  offsetMs: number;
}

const weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** The calendar date, ISO weekday and UTC offset of a moment in a time zone. */
function localParts(moment: number, timeZone: string): LocalParts {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hourCycle: "h23",
      weekday: "short",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(new Date(moment))
      .map((part) => [part.type, part.value]),
  );
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, weekday: weekdays.indexOf(parts.weekday ?? "") + 1, offsetMs: asUtc - Math.floor(moment / 1000) * 1000 };
}

/** The moment a local date and time occur in a zone (the zone's offset at that moment). */
function zonedMoment(date: string, time: string, timeZone: string): number {
  const wall = Date.parse(`${date}T${time}:00Z`);
  let moment = wall - localParts(wall, timeZone).offsetMs;
  moment = wall - localParts(moment, timeZone).offsetMs;
  return moment;
}

/** Today's cut-off in the market, when today is a shipping day and the cut-off is still ahead. */
export function todaysCutoff(now: number, rule: DispatchRule, timeZone: string): number | null {
  const today = localParts(now, timeZone);
  if (!rule.workingDays.includes(today.weekday) || rule.closedDays.includes(today.date)) return null;
  const cutoff = zonedMoment(today.date, rule.cutoff, timeZone);
  return cutoff > now ? cutoff : null;
}

/** The calendar day after a `YYYY-MM-DD` date, with its ISO weekday. */
function followingDay(date: string): { date: string; weekday: number } {
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000);
  return { date: next.toISOString().slice(0, 10), weekday: ((next.getUTCDay() + 6) % 7) + 1 };
}

/**
 * When an order placed at a moment must have left the warehouse, by the promise the countdown makes:
 * today's cut-off while it is still ahead on a shipping day, otherwise the next shipping day's.
 */
export function promisedDispatch(placedAt: number, rule: DispatchRule, timeZone: string): number {
  const today = todaysCutoff(placedAt, rule, timeZone);
  if (today !== null) return today;
  let day = localParts(placedAt, timeZone).date;
  // A year of closed days would be a broken content file, not a calendar.
  for (let step = 0; step < 366; step += 1) {
    const next = followingDay(day);
    day = next.date;
    if (rule.workingDays.includes(next.weekday) && !rule.closedDays.includes(day)) return zonedMoment(day, rule.cutoff, timeZone);
  }
  throw new Error("The dispatch rule has no shipping day within a year");
}
