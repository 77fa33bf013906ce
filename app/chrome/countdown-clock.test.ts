import { describe, expect, it } from "vitest";
import { chooseDeadline, formatMinutesSeconds, offerCountdownWindowMs, remainingMs } from "./countdown-clock";

const now = 1_800_000_000_000;
const hour = 60 * 60_000;

describe("chooseDeadline", () => {
  it.each([
    ["nothing ahead: no timer", null, null, null],
    ["today's cut-off", null, now + 2 * hour, { kind: "ships-today", at: now + 2 * hour }],
    ["a reduction ending within a day", now + 3 * hour, null, { kind: "offer-ends", at: now + 3 * hour }],
    ["the nearer of the two", now + 3 * hour, now + 2 * hour, { kind: "ships-today", at: now + 2 * hour }],
    ["a reduction ending before the cut-off", now + hour, now + 2 * hour, { kind: "offer-ends", at: now + hour }],
    ["a reduction ending in weeks is a date, not a timer", now + 30 * 24 * hour, now + 2 * hour, { kind: "ships-today", at: now + 2 * hour }],
    ["a reduction that has ended is no deadline", now - 1, null, null],
  ])("%s", (_name, offerEndsAt, cutoff, expected) => {
    expect(chooseDeadline(now, offerEndsAt, cutoff)).toEqual(expected);
  });

  it("takes a reduction's end exactly one day away", () => {
    expect(chooseDeadline(now, now + offerCountdownWindowMs, null)?.kind).toBe("offer-ends");
  });
});

describe("formatMinutesSeconds", () => {
  it.each([
    [15 * 60_000, "15:00"],
    [61_000, "01:01"],
    [59_001, "01:00"],
    [999, "00:01"],
    [0, "00:00"],
    [2 * hour, "120:00"],
  ])("%i ms is %s", (ms, text) => {
    expect(formatMinutesSeconds(ms)).toBe(text);
  });

  it("never counts below zero", () => {
    expect(remainingMs(now - 1, now)).toBe(0);
  });
});
