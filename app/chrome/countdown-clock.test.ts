import { describe, expect, it } from "vitest";
import { formatMinutesSeconds, remainingMs, resolveDeadline } from "./countdown-clock";

const now = 1_800_000_000_000;
const windowMs = 15 * 60_000;

describe("resolveDeadline", () => {
  it.each([
    ["nothing stored: a new window", null, now + windowMs],
    ["a stored deadline is kept", String(now + 60_000), now + 60_000],
    ["a passed deadline stays passed", String(now - 5_000), now - 5_000],
    ["garbage starts a new window", "soon", now + windowMs],
    ["a negative number starts a new window", "-4", now + windowMs],
    ["a fraction starts a new window", "12.5", now + windowMs],
    ["a tampered, far deadline is cut to one window", String(now + 10 * windowMs), now + windowMs],
  ])("%s", (_name, stored, expected) => {
    expect(resolveDeadline(stored, now, windowMs)).toBe(expected);
  });
});

describe("formatMinutesSeconds", () => {
  it.each([
    [15 * 60_000, "15:00"],
    [61_000, "01:01"],
    [59_001, "01:00"],
    [999, "00:01"],
    [0, "00:00"],
    [125 * 60_000, "125:00"],
  ])("%i ms is %s", (ms, text) => {
    expect(formatMinutesSeconds(ms)).toBe(text);
  });

  it("never counts below zero", () => {
    expect(remainingMs(now - 1, now)).toBe(0);
  });
});
