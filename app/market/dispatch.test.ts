import { describe, expect, it } from "vitest";
import { promisedDispatch, todaysCutoff, type DispatchRule } from "./dispatch";

const rule: DispatchRule = { cutoff: "14:00", workingDays: [1, 2, 3, 4, 5], closedDays: ["2026-12-24"] };

describe("todaysCutoff", () => {
  it("is 14:00 in the market's zone on a working day before the cut-off", () => {
    // Friday 27 November 2026, 10:00 in Berlin (UTC+1).
    expect(todaysCutoff(Date.parse("2026-11-27T09:00:00Z"), rule, "Europe/Berlin")).toBe(Date.parse("2026-11-27T13:00:00Z"));
    expect(todaysCutoff(Date.parse("2026-11-27T09:00:00Z"), rule, "Europe/Helsinki")).toBe(Date.parse("2026-11-27T12:00:00Z"));
  });

  it("follows summer time", () => {
    expect(todaysCutoff(Date.parse("2026-07-01T08:00:00Z"), rule, "Europe/Stockholm")).toBe(Date.parse("2026-07-01T12:00:00Z"));
  });

  it("is none once the cut-off has passed, at the weekend and on a closed day", () => {
    expect(todaysCutoff(Date.parse("2026-11-27T13:00:00Z"), rule, "Europe/Berlin")).toBeNull();
    expect(todaysCutoff(Date.parse("2026-11-28T09:00:00Z"), rule, "Europe/Berlin")).toBeNull();
    expect(todaysCutoff(Date.parse("2026-12-24T08:00:00Z"), rule, "Europe/Copenhagen")).toBeNull();
  });

  it("reads the market's calendar day, not the UTC one", () => {
    // 23:30 UTC on Sunday is already Monday 01:30 in Helsinki: Monday's cut-off is ahead.
    expect(todaysCutoff(Date.parse("2026-11-29T23:30:00Z"), rule, "Europe/Helsinki")).toBe(Date.parse("2026-11-30T12:00:00Z"));
  });
});

describe("promisedDispatch", () => {
  it("is today's cut-off while it is ahead, else the next shipping day's under the rule given", () => {
    const saturdays: DispatchRule = { cutoff: "12:00", workingDays: [1, 2, 3, 4, 5, 6], closedDays: [] };
    expect(promisedDispatch(Date.parse("2026-11-27T09:00:00Z"), saturdays, "Europe/Berlin")).toBe(Date.parse("2026-11-27T11:00:00Z"));
    expect(promisedDispatch(Date.parse("2026-11-27T12:00:00Z"), saturdays, "Europe/Berlin")).toBe(Date.parse("2026-11-28T11:00:00Z"));
    expect(promisedDispatch(Date.parse("2026-11-28T12:00:00Z"), saturdays, "Europe/Berlin")).toBe(Date.parse("2026-11-30T11:00:00Z"));
  });
});
